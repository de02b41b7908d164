"""A training log's crash event names its failure kind, in `train status --json` and the message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessiontui.collectors.logtext import (
    HINTS,
    KIND_HINTS,
    SHAPES_ABOVE,
    block_has_hint,
    clean,
    failure_kind,
    glued_exception,
    has_hint,
    terminal_wrap,
    unwrap_terminal,
)
from sessiontui.collectors.trainlog import read_log
from sessiontui.tui.cli import main

CRASHES = Path(__file__).parent.parent / "fixtures" / "crash"


@pytest.mark.parametrize(
    ("name", "failure"),
    [
        ("cuda_oom.log", "cuda_oom"),
        ("cuda_oom_legacy.log", "cuda_oom"),
        ("triton_shared_memory.log", "triton_resources"),
        ("nccl_watchdog.log", "nccl_timeout"),
        ("killed.log", "host_oom"),
        ("illegal_memory_access.log", "illegal_memory_access"),
        ("device_side_assert.log", "device_assert"),
    ],
)
def test_crash_event_names_its_kind(name: str, failure: str) -> None:
    (event,) = [event for event in read_log(CRASHES / name).events if event.kind == "crashed"]
    assert event.failure == failure
    assert event.message.endswith(f"({failure})")  # what the Training card shows


def test_status_json_event_has_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "status", "--log", str(CRASHES / "cuda_oom.log"), "--json"]) == 0
    (event,) = json.loads(capsys.readouterr().out)["events"]
    assert event["failure"] == "cuda_oom"


def test_a_traceback_of_no_known_kind_has_none(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 7 loss 2.5\nTraceback (most recent call last):\n"
                   '  File "train.py", line 3, in <module>\nKeyError: \'x\'\n')
    (event,) = read_log(log).events
    assert event.failure is None and event.message == "KeyError: 'x' at step 7"


# Every message form of each kind, as the libraries' source strings print them (PyTorch
# c10/cuda/CUDACachingAllocator.cpp and CUDAException, ProcessGroupNCCL.cpp, TensorFlow's and
# XLA's bfc_allocator, JAX's XlaRuntimeError, ROCm's HIP names, MPSAllocator, the kernel's OOM
# killer, torchelastic, Triton's OutOfResources, vLLM's and SGLang's memory checks, TensorRT-LLM,
# llama.cpp's ggml-cuda, the CUDA runtime's error strings 35/803/804).
MESSAGE_FORMS = [
    ('torch 2.x OOM', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.21 GiB is free. Process 1234 has 77.93 GiB memory in use.',
     'cuda_oom'),
    ('torch 1.x OOM', 'RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 14.50 GiB already allocated; 5.75 MiB free; 14.70 GiB reserved in total by PyTorch)',
     'cuda_oom'),
    ('torch 2.0 OOM', 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.69 GiB total capacity)',
     'cuda_oom'),
    ('torch CUDA error OOM', 'RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call',
     'cuda_oom'),
    ('cublas alloc', 'RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`',
     'cuda_oom'),
    ('cublas not init', 'RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`',
     'cublas_error'),
    ('cublas invalid value', 'RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`',
     'cublas_error'),
    ('cublas not supported', 'RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmul( ltHandle, computeDesc.descriptor(), &alpha_val, mat1_ptr, Adesc.descriptor(), ...)`',
     'cublas_error'),
    # A failed GEMM is cuBLAS's own kind; only a device-side assert beside it says an assert fired.
    ('cublas execution failed', 'RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`',
     'cublas_error'),
    ('python assert above cublas', "    assert torch.matmul(a, b).min().item()==2, 'Please upgrade'\nRuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`",
     'cublas_error'),
    ('device assert then cublas', "Indexing.cu:1146: indexSelectLargeIndex: block: [10,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\nRuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`",
     'device_assert'),
    ('illegal address', 'RuntimeError: CUDA error: an illegal memory access was encountered\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.',
     'illegal_memory_access'),
    ('cudaErrorIllegalAddress', "terminate called after throwing an instance of 'c10::Error'\n  what():  CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress)",
     'illegal_memory_access'),
    ('nccl cuda failure illegal', "NCCL WARN Cuda failure 'an illegal memory access was encountered'",
     'illegal_memory_access'),
    ('nccl cuda failure oom', "misc/utils.cc:35 NCCL WARN Cuda failure 'out of memory'\n"
     "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled cuda error, NCCL version 2.14.3",
     'cuda_oom'),
    ('nccl last error oom', "ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\nCuda failure 2 'out of memory'",
     'cuda_oom'),
    ('nccl watchdog 2.x', '[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600114 milliseconds before timing out.',
     'nccl_timeout'),
    ('nccl watchdog 2.4', '[PG ID 0 PG GUID 0(default_pg) Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=_ALLGATHER_BASE, NumelIn=1, NumelOut=8, Timeout(ms)=1800000) ran for 1800076 milliseconds before timing out.',
     'nccl_timeout'),
    # ProcessGroupNCCL.cpp WorkNCCL::handleException logs these words for any failed work (an error's
    # too): alone they say NCCL failed, not that it timed out; the watchdog's own words say that
    ('nccl async failed', '[E ProcessGroupNCCL.cpp:475] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.',
     'nccl_error'),
    ('nccl async failed then remote error', '[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. '
     "[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down. terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: remote process exited or there was a network error, NCCL version 2.14.3 "
     'ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.',
     'nccl_error'),
    ('nccl either error or timeout', '[rank1]:[E1003 18:37:01.833575187 ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 1] Exception (either an error or timeout) detected by watchdog at work: 6463, last enqueued NCCL work: 6463, last completed NCCL work: 6462.',
     'nccl_error'),
    ('nccl async failed after watchdog', '[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=6463, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800017 milliseconds before timing out.\n'
     '[Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.',
     'nccl_timeout'),
    ('nccl aborted on timeout', 'RuntimeError: NCCL communicator was aborted on rank 2.  Original reason for failure was: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800584 milliseconds before timing out.',
     'nccl_timeout'),
    ('nccl unhandled system', 'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
     'nccl_error'),
    # ProcessGroupNCCL.cpp's async error report names the work by its description, whose
    # `Timeout(ms)=N` is the work's setting, not a timeout (pytorch/pytorch c10d WorkNCCL operator<<)
    ('nccl async system error', 'Collective WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1000000) raised the following async exception: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.25.1\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
     'nccl_error'),
    ('nccl unhandled cuda old', 'RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:784, unhandled cuda error, NCCL version 2.7.8',
     'nccl_error'),
    ('nccl remote', 'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, remote process exited or there was a network error, NCCL version 2.20.5\nncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.',
     'nccl_error'),
    ('dist backend store', "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer",
     'nccl_error'),
    ('tf oom', 'tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[32,64,224,224] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
     'cuda_oom'),
    ('tf2 oom', 'ResourceExhaustedError:  OOM when allocating tensor with shape[1024,1024] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:MatMul]',
     'cuda_oom'),
    ('tf1 oom', 'ResourceExhaustedError (see above for traceback): OOM when allocating tensor of shape [4096,4096] and type float',
     'cuda_oom'),
    ('jax oom', 'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.',
     'cuda_oom'),
    ('jax oom new', 'jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 8.00GiB.',
     'cuda_oom'),
    ('xla bfc', '2024-01-01 10:00:00.000000: W external/xla/xla/tsl/framework/bfc_allocator.cc:482] Allocator (GPU_0_bfc) ran out of memory trying to allocate 16.00GiB (rounded to 17179869184)requested by op',
     'cuda_oom'),
    ('xla tpu hbm', 'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 17.50G of 15.48G hbm.',
     'cuda_oom'),
    ('rocm oom new', 'torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 191.98 GiB of which 0 bytes is free.',
     'cuda_oom'),
    ('rocm oom old', 'RuntimeError: HIP out of memory. Tried to allocate 128.00 MiB (GPU 0; 63.98 GiB total capacity; 63.10 GiB already allocated)',
     'cuda_oom'),
    ('hip error oom', 'RuntimeError: HIP error: hipErrorOutOfMemory',
     'cuda_oom'),
    ('hip no binary', 'RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!',
     'no_kernel_image'),
    ('hip illegal', 'RuntimeError: HIP error: an illegal memory access was encountered',
     'illegal_memory_access'),
    ('mps oom', 'RuntimeError: MPS backend out of memory (MPS allocated: 18.13 GB, other allocations: 1.44 GB, max allowed: 20.13 GB). Tried to allocate 1.00 GB on private pool.',
     'cuda_oom'),
    ('bash killed', 'step 100 loss 2.1\nKilled',
     'host_oom'),
    ('zsh killed', 'step 100 loss 2.1\nzsh: killed     python train.py',
     'host_oom'),
    ('dmesg oom', '[12345.678] Out of memory: Killed process 4321 (python) total-vm:123456kB, anon-rss:98765kB',
     'host_oom'),
    ('oom-kill', '[12345.678] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,task=python,pid=4321,uid=0',
     'host_oom'),
    ('elastic -9', 'torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 1234) of binary: /usr/bin/python',
     'host_oom'),
    ('elastic sigkill', 'torch.distributed.elastic.multiprocessing.api:Sending process 1234 closing signal SIGTERM\nSignal 9 (SIGKILL) received by PID 1234',
     'host_oom'),
    ('docker 137', 'train-1 exited with code 137',
     'host_oom'),
    ('k8s oomkilled', 'Last State: Terminated\n  Reason: OOMKilled\n  Exit Code: 137',
     'host_oom'),
    ('segfault', 'Segmentation fault (core dumped)',
     'segfault'),
    ('fatal segfault', 'Fatal Python error: Segmentation fault\n\nThread 0x00007f (most recent call first):',
     'segfault'),
    ('elastic sigsegv', 'exitcode  : -11 (pid: 1234)\n  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID 1234',
     'segfault'),
    ('triton oor', 'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.',
     'triton_resources'),
    ('no kernel image', 'RuntimeError: CUDA error: no kernel image is available for execution on the device',
     'no_kernel_image'),
    ('sm not compatible', 'UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.',
     'no_kernel_image'),
    ('driver insufficient', 'RuntimeError: CUDA driver version is insufficient for CUDA runtime version',
     'cuda_driver'),
    ('driver too old', 'RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver',
     'cuda_driver'),
    ('cuda error 35', 'cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version',
     'cuda_driver'),
    ('driver mismatch 803', 'RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 803: system has unsupported display driver / cuda driver combination',
     'cuda_driver'),
    ('forward compat 804', 'CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility was attempted on non supported HW',
     'cuda_driver'),
    # a driver older than the toolkit, however the CUDA error names it, is the driver's kind
    ('ptx toolchain', 'RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.',
     'cuda_driver'),
    ('driver init', 'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.',
     'cuda_driver'),
    ('driver mismatch words', 'RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination',
     'cuda_driver'),
    ('tf cuInit', 'E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected',
     'cuda_driver'),
    ('device assert', '../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [10,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\nRuntimeError: CUDA error: device-side assert triggered',
     'device_assert'),
    ('cudnn', 'RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR',
     'cudnn_error'),
    ('launch failure', 'RuntimeError: CUDA error: unspecified launch failure',
     'launch_failure'),
    ('ecc', 'RuntimeError: CUDA error: uncorrectable ECC error encountered',
     'ecc_error'),
    ('shm', "RuntimeError: DataLoader worker (pid 1234) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
     'shm'),
    # pytorch/pytorch aten/src/ATen/MapAllocator.cpp, a shared-memory tensor's file `</torch_PID_N>`
    # on a full /dev/shm: "unable to write to file <", ..., ">: No space left on device (28)", and
    # "unable to mmap ", size, " bytes from file <", ... (this one said host_oom before)
    ('shm write', 'RuntimeError: unable to write to file </torch_18820_3891574887_0>: No space left on device (28)',
     'shm'),
    ('shm mmap', 'RuntimeError: unable to mmap 1024 bytes from file </torch_1234_5678>: Cannot allocate memory (12)',
     'shm'),
    ('vllm kv blocks', 'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
     'cuda_oom'),
    ('sglang mem', 'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.',
     'cuda_oom'),
    ('trtllm oom', '[TensorRT-LLM][ERROR] tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mMemPool->getPool(), mCudaStream->get()): out of memory (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)',
     'cuda_oom'),
    ('llama.cpp oom', 'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory',
     'cuda_oom'),
    ('abort', "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\nAborted (core dumped)",
     'aborted'),
    ('bad_alloc', "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
     'host_oom'),    # Forms the vocabulary lacked (2026-12-01 round), each from the printing code:
    # pytorch/pytorch c10/xpu/XPUCachingAllocator.cpp (`XPU out of memory. Tried to allocate `; the
    # older intel-extension-for-pytorch wording ends `please use \`empty_cache\``) and Ascend's
    # torch_npu NPUCachingAllocator (`NPU out of memory. Tried to allocate `): no `CUDA`/`GPU` word,
    # so they read as the host's memory before
    ('xpu oom old', 'RuntimeError: XPU out of memory, please use `empty_cache` to release all unoccupied cached memory.',
     'cuda_oom'),
    # Apple Metal's command-buffer error, as ggml-metal prints it (`error: Insufficient Memory
    # (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)`); TensorRT's GPU allocator
    # (`Requested amount of GPU memory (N bytes) could not be allocated.`)
    ('metal oom', 'ggml_metal_graph_compute: command buffer 0 failed with status 5\nerror: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)',
     'cuda_oom'),
    ('tensorrt gpu memory', '[12/01/2024-10:00:00] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)\n[TRT] [E] Requested amount of GPU memory (17179869184 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.',
     'cuda_oom'),
    ('npu oom', 'RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.12 GiB already allocated)',
     'cuda_oom'),
    # tensorflow/tensorflow tensorflow/core/kernels/matmul_op.cc: errors::Internal("Blas GEMM launch
    # failed : a.shape=(", ...) and its batched twin `Blas xGEMMBatched launch failed`
    ('tf blas gemm', 'tensorflow.python.framework.errors_impl.InternalError: Blas GEMM launch failed : a.shape=(32, 784), b.shape=(784, 10), m=32, n=10, k=784',
     'cublas_error'),
    ('tf blas batched', 'InternalError: Blas xGEMMBatched launch failed : a.shape=[1,3,3], b.shape=[1,3,16384], m=3, n=16384, k=3, batch_size=1 [Op:BatchMatMulV2]',
     'cublas_error'),
    # TensorFlow/XLA stream_executor cuda_dnn.cc: `DNN library is not found.`, `DNN library
    # initialization failed`, `Loaded runtime CuDNN library: X but source was compiled with: Y`;
    # conv_ops `No algorithm worked!`; PyTorch's cudnn_frontend errors `cuDNN Frontend error: `
    ('tf dnn not found', 'tensorflow.python.framework.errors_impl.UnimplementedError: DNN library is not found.',
     'cudnn_error'),
    ('jax dnn init', 'jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.',
     'cudnn_error'),
    ('tf cudnn version', 'E tensorflow/stream_executor/cuda/cuda_dnn.cc:343] Loaded runtime CuDNN library: 7.1.4 but source was compiled with: 7.2.1.  CuDNN library major and minor version needs to match or have higher minor version in case of CuDNN 7.0 or later version.',
     'cudnn_error'),
    ('tf no algorithm', 'tensorflow.python.framework.errors_impl.NotFoundError: No algorithm worked! [Op:Conv2D]',
     'cudnn_error'),
    ('cudnn frontend', 'RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.',
     'cudnn_error'),
    # pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, the heartbeat monitor:
    # "ProcessGroupNCCL's watchdog got stuck for ", heartbeatTimeoutInSec_, " seconds without making
    # progress in monitoring enqueued collectives."; and broadcastUniqueNCCLID's "is setting up NCCL
    # communicator and retrieving ncclUniqueId from [0] via c10d key-value store ... got error: "
    ('nccl heartbeat', '[rank0]:[E1201 10:00:00.000000000 ProcessGroupNCCL.cpp:1295] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL\'s watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog.',
     'nccl_timeout'),
    # the heartbeat monitor's and the desync report's ERROR lines in the same file ("Heartbeat monitor
    # timed out! Process will be terminated after dumping debug info.", "First PG on this rank that
    # detected no heartbeat of its watchdog.", "Timeout at NCCL work: ", seq, ...): the glog head
    # `[E... ProcessGroupNCCL.cpp:N]` that names NCCL is cut off before the line is read
    ('nccl heartbeat timed out', '[rank25]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 25] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=2',
     'nccl_timeout'),
    ('nccl no heartbeat', '[rank3]:[E1201 10:00:00.000000 ProcessGroupNCCL.cpp:1316] [PG ID 0 PG GUID 0(default_pg) Rank 3] First PG on this rank that detected no heartbeat of its watchdog.',
     'nccl_timeout'),
    ('nccl timeout at work', '[rank1]:[E1201 10:00:00.000000 ProcessGroupNCCL.cpp:1722] [PG 0 Rank 1] Timeout at NCCL work: 5, last enqueued NCCL work: 5, last completed NCCL work: 4.',
     'nccl_timeout'),
    ('nccl unique id', "RuntimeError: [2] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
     'nccl_error'),
    # SchedMD/slurm task/cgroup memory plugin since 21.08: "Detected %lu oom_kill event%s in %ps.
    # Some of the step tasks have been OOM Killed." (the older form says `oom-kill event(s)`), and
    # the job state `OUT_OF_MEMORY` that `seff`/`sacct` print
    ('slurm oom_kill', 'slurmstepd: error: Detected 1 oom_kill event in StepId=1234.batch. Some of the step tasks have been OOM Killed.',
     'host_oom'),
    ('slurm state', 'State: OUT_OF_MEMORY (exit code 0)',
     'host_oom'),
    # bash's job report pads the signal's name: `line 5:  4321 Aborted                 (core dumped) ...`
    ('bash aborted', 'run.sh: line 5:  4321 Aborted                 (core dumped) python train.py',
     'aborted'),
    # vllm-project/vllm: V1 vllm/v1/core/kv_cache_utils.py (`To serve at least one request with the
    # models's max seq len (N), (X GiB KV cache is needed, which is larger than the available KV cache
    # memory (Y GiB).`), V0 vllm/worker/worker.py (`The model's max seq len (N) is larger than the
    # maximum number of tokens that can be stored in KV cache (M).`), and the V1 worker's start-up
    # guard (`Free memory on device (X/Y GiB) on startup is less than desired GPU memory utilization`)
    ('vllm v1 kv', "(EngineCore_0 pid=1) ValueError: To serve at least one request with the models's max seq len (32768), (4.00 GiB KV cache is needed, which is larger than the available KV cache memory (2.00 GiB). Based on the available memory, the estimated maximum model length is 16384. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
     'cuda_oom'),
    ('vllm v0 kv', "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (41152). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
     'cuda_oom'),
    ('vllm startup guard', 'ValueError: Free memory on device (10.50/79.10 GiB) on startup is less than desired GPU memory utilization (0.90, 71.19 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
     'cuda_oom'),
    # pytorch/pytorch aten/src/ATen/native/cudnn: Conv_v7.cpp `Unable to find a valid cuDNN
    # algorithm to run convolution`, Conv_v8.cpp `GET was unable to find an engine to execute this
    # computation` (and `FIND ...`); c10/cuda `CUDA unknown error - this may be due to ...` raised
    # (not warned); `No CUDA GPUs are available` (cudaErrorNoDevice's kind, as above)
    ('cudnn no valid algorithm', 'RuntimeError: Unable to find a valid cuDNN algorithm to run convolution',
     'cudnn_error'),
    ('cudnn v8 no engine', 'RuntimeError: GET was unable to find an engine to execute this computation',
     'cudnn_error'),
    ('cuda unknown raised', 'RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.',
     'cuda_error'),
    ('no cuda gpus', 'RuntimeError: No CUDA GPUs are available',
     'cuda_driver'),
    # tensorflow/tensorflow common_runtime copy_tensor: a host-to-GPU copy into a GPU with no
    # memory left fails as `Dst tensor is not initialized.`
    ('tf dst tensor', 'tensorflow.python.framework.errors_impl.InternalError: Failed copying input tensor from /job:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0 in order to run _EagerConst: Dst tensor is not initialized.',
     'cuda_oom'),
    # ROCm/ROCR-Runtime hsa-runtime core/runtime/runtime.cpp: "Memory access fault by GPU node-%u
    # (Agent handle: %p) on address %p%s. Reason: %s.", then the abort it causes
    ('rocm memory fault', 'Memory access fault by GPU node-2 (Agent handle: 0x55d0c0) on address 0x7f0000. Reason: Page not present or supervisor privilege.\nAborted (core dumped)',
     'illegal_memory_access'),
    # PyTorch's DataLoader `is killed by signal: Aborted.`; c10/core/impl/alloc_cpu.cpp
    # `DefaultCPUAllocator: not enough memory: you tried to allocate N bytes.`; Open MPI's
    # `mpirun noticed that process rank 0 ... exited on signal 9 (Killed).`; Ray's memory monitor
    # (`ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.`)
    ('dataloader aborted', 'RuntimeError: DataLoader worker (pid 1234) is killed by signal: Aborted.',
     'aborted'),
    ('cpu allocator', 'RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1073741824 bytes.',
     'host_oom'),
    ('mpirun signal 9', 'mpirun noticed that process rank 0 with PID 1234 on node n1 exited on signal 9 (Killed).',
     'host_oom'),
    ('ray node oom', 'ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.',
     'host_oom'),
]


# The kinds of a job that stopped for no GPU's reason, from the strings that print them:
# disk_full (CPython's strerror for errno 28/122; PyTorch caffe2/serialize/inline_container.cc's
# `PytorchStreamWriter failed writing file` and `unexpected pos`; huggingface/safetensors'
# `IoError(Os { code: 28, kind: StorageFull, ... })`; Node's libuv `ENOSPC`; coreutils' `cp:
# error writing`), import_error (Python's ModuleNotFoundError/ImportError, glibc ld.so's `error
# while loading shared libraries` and `version `GLIBCXX_3.4.29' not found`, transformers
# utils/versions.py require_version, torch utils/cpp_extension.py's CUDA version check),
# missing_file (FileNotFoundError, CPython Modules/main.c `can't open file`, transformers
# Trainer's `Can't find a valid checkpoint at`), cancelled (slurmstepd req.c's `CANCELLED AT %s
# DUE TO TIME LIMIT/PREEMPTION/NODE FAILURE`, torchelastic's SignalException and death signal,
# Lightning signal_connector.py's `Received SIGTERM: 15`, bash's `Terminated`, exit code -15).
MESSAGE_FORMS += [
    # TensorFlow core/lib/core/status.cc (before absl): the code's name `Resource exhausted` then the
    # message, as JAX 0.1's local_client.cc logs it, also wrapped by a terminal inside the message
    ('xla status name', 'E external/org_tensorflow/tensorflow/compiler/xla/python/local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out of memory while trying to allocate 5520758552 bytes.',
     'cuda_oom'),
    ('xla status name wrapped', 'E external/org_tensorflow/tensorflow/compiler/xla/python/local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out \nof memory while trying to allocate 5520758552 bytes.',
     'cuda_oom'),
    ('errno 28', 'OSError: [Errno 28] No space left on device', 'disk_full'),
    ('errno 122', "OSError: [Errno 122] Disk quota exceeded: '/home/u/ckpt/step_100'", 'disk_full'),
    ('stream writer', 'RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing file data/0: file write failed',
     'disk_full'),
    ('stream writer pos', 'RuntimeError: [enforce fail at inline_container.cc:664] . unexpected pos 56833600 vs 56833492',
     'disk_full'),
    ('safetensors full', 'safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: "No space left on device" })',
     'disk_full'),
    ('node enospc', 'Error: ENOSPC: no space left on device, write', 'disk_full'),
    ('cp full', "cp: error writing '/scratch/ckpt.pt': No space left on device", 'disk_full'),
    ('no module', "ModuleNotFoundError: No module named 'flash_attn'", 'import_error'),
    ('undefined symbol', 'ImportError: /opt/venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi',
     'import_error'),
    ('shared object', 'ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory',
     'import_error'),
    ('loader', 'python: error while loading shared libraries: libpython3.10.so.1.0: cannot open shared object file: No such file or directory',
     'import_error'),
    ('glibcxx', "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_python.so)",
     'import_error'),
    ('require version', 'ImportError: accelerate>=0.21.0 is required for a normal functioning of this module, but found accelerate==0.20.3.',
     'import_error'),
    ('cuda mismatch', 'RuntimeError: The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1). Please make sure to use the same CUDA versions.',
     'import_error'),
    # CPython Lib/runpy.py _run_module_as_main: sys.exit("%s: %s" % (sys.executable, exc)) for
    # `python -m MODULE` (accelerate launch's `python -m accelerate.commands.launch` when accelerate is missing)
    ('runpy module spec', "/usr/bin/python3: Error while finding module specification for 'accelerate.commands.launch' (ModuleNotFoundError: No module named 'accelerate')",
     'import_error'),
    ('runpy module spec windows', "C:\\Python311\\python.exe: Error while finding module specification for 'accelerate.commands.launch' (ModuleNotFoundError: No module named 'accelerate')",
     'import_error'),
    ('runpy no module', "/opt/conda/bin/python3.10: No module named 'deepspeed'", 'import_error'),
    # transformers utils/import_utils.py _LazyModule._get_module: RuntimeError(f"Failed to import
    # {self.__name__}.{module_name} because of the following error (look up to see its traceback):\n{e}")
    ('transformers lazy import', 'RuntimeError: Failed to import transformers.models.bloom.modeling_bloom because of the following error (look up to see its traceback):\n/opt/venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops5zeros4callE',
     'import_error'),
    ('file not found', "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.jsonl'", 'missing_file'),
    # an OSError a script caught and printed (`except OSError as e: print(e)`): str(OSError) alone
    ('printed oserror', "[Errno 2] No such file or directory: 'Data/Training_Images/images%20(42).jpg'", 'missing_file'),
    ('script not found', "python: can't open file '/workspace/train.py': [Errno 2] No such file or directory",
     'missing_file'),
    ('no checkpoint', "ValueError: Can't find a valid checkpoint at /ckpt/checkpoint-500", 'missing_file'),
    ('slurm preempted', 'slurmstepd: error: *** JOB 1234 ON node01 CANCELLED AT 2024-01-01T10:00:00 DUE TO PREEMPTION ***',
     'cancelled'),
    ('slurm node failure', 'slurmstepd: error: *** JOB 1234 CANCELLED AT 2020-01-01T10:00:00 DUE TO NODE FAILURE ***',
     'cancelled'),
    ('elastic sigterm', 'torch.distributed.elastic.multiprocessing.api.SignalException: Process 1234 got signal: 15',
     'cancelled'),
    ('elastic death sigterm', 'WARNING:torch.distributed.elastic.agent.server.api:Received Signals.SIGTERM death signal, shutting down workers',
     'cancelled'),
    ('lightning sigterm', '[rank: 0] Received SIGTERM: 15', 'cancelled'),
    ('bash terminated', 'train.sh: line 12:  4242 Terminated              python train.py', 'cancelled'),
    ('elastic -15', 'Root Cause (first observed failure):\n  exitcode  : -15 (pid: 12)', 'cancelled'),
    # deepspeed/launcher/launch.py `sigkill_handler`: `Main process received {sig_names[signum]}, exiting`
    ('deepspeed launcher sigterm',
     '[2025-02-20 20:27:14,902] [INFO] [launch.py:328:sigkill_handler] Main process received SIGTERM, exiting',
     'cancelled'),
    ('deepspeed launcher sigint',
     '[2025-02-20 20:27:14,902] [INFO] [launch.py:328:sigkill_handler] Main process received SIGINT, exiting',
     'interrupted'),
]


@pytest.mark.parametrize(("form", "tail", "kind"), MESSAGE_FORMS, ids=[f[0] for f in MESSAGE_FORMS])
def test_every_message_form_names_its_kind(form: str, tail: str, kind: str) -> None:
    assert failure_kind(f"step 7 loss 2.5\n{tail}\n") == kind


# Kinds told apart beyond FAILURE_KINDS' patterns: NVIDIA's Xid numbers (the driver's
# `NVRM: Xid (PCI:0000:06:00): 79, pid=..., GPU has fallen off the bus.`, quoted in a public
# post-mortem; NVML's NVML_ERROR_GPU_IS_LOST string `GPU is lost`) and a launcher's bare exit
# code (DeepSpeed deepspeed/launcher/launch.py sigkill_handler: f"{cmd} exits with return code =
# {last_return_code}"; torchelastic's ChildFailedError Root Cause `exitcode  : -11 (pid: N)`).
GPU_AND_LAUNCHER_FORMS = [
    ('xid 79', 'NVRM: Xid (PCI:0000:06:00): 79, pid=4242, GPU has fallen off the bus.', 'gpu_lost'),
    ('xid 79 short', 'NVRM: Xid 79, GPU has fallen off the bus', 'gpu_lost'),
    ('xid 79 then cuda', 'NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n'
     'RuntimeError: CUDA error: unknown error', 'gpu_lost'),
    ('nvml lost', 'Unable to determine the device handle for GPU 0000:3B:00.0: GPU is lost.  Reboot '
     'the system to recover this GPU', 'gpu_lost'),
    ('xid 48 dbe', 'NVRM: Xid (PCI:0000:3b:00): 48, pid=1, An uncorrectable double bit error (DBE) '
     'has been detected on GPU', 'ecc_error'),
    ('xid 31 mmu', 'NVRM: Xid (PCI:0000:3b:00): 31, pid=1, Ch 00000010, intr 00000000. MMU Fault',
     'illegal_memory_access'),
    # A driver's log over days holds several faults on several GPUs: the last one tells it, the
    # follow-on Xids 43 (channel stopped) and 45 (cleaned up, `caused by previous Xid N`) aside
    # (NVIDIA's Xid catalogue, docs.nvidia.com/deploy/xid-errors)
    ('xids 43 31 94', '[Wed Jul 31 23:14:18 2024] NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch 00000008\n'
     '[Mon Aug  5 03:54:13 2024] NVRM: Xid (PCI:0000:00:07): 31, pid=2512125, name=python3.10, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS\n'
     "[Fri Aug  9 13:32:56 2024] NVRM: Xid (PCI:0000:00:08): 94, pid='<unknown>', name=<unknown>, Contained: SM (0x1). RST: No, D-RST: No",
     'ecc_error'),
    ('xids 94 then 31', 'NVRM: Xid (PCI:0000:00:08): 94, pid=1, Contained: SM (0x1).\n'
     'NVRM: Xid (PCI:0000:00:07): 31, pid=2, Ch 00000008, intr 00000000. MMU Fault', 'illegal_memory_access'),
    ('xid 48 then 45', 'NVRM: Xid (PCI:0000:3b:00): 48, pid=1, An uncorrectable double bit error (DBE) has been detected on GPU\n'
     'NVRM: Xid (PCI:0000:3b:00): 45, pid=1, name=python3, Ch 00000001', 'ecc_error'),
    ('xid 45 after 149', 'kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1, name=python3, Ch 00000001 caused by previous Xid 149',
     'cuda_error'),
    ('xid 74 nvlink', 'NVRM: Xid (PCI:0000:3b:00): 74, pid=1, NVLink: fatal error detected',
     'cuda_error'),
    ('ecc words', 'RuntimeError: CUDA error: uncorrectable ECC error encountered', 'ecc_error'),
    ('deepspeed -9', "[ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', 'train.py'] "
     'exits with return code = -9', 'host_oom'),
    ('deepspeed -11', "[ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', 'train.py'] "
     'exits with return code = -11', 'segfault'),
    ('elastic -7', 'Root Cause (first observed failure):\n  exitcode  : -7 (pid: 12)\n'
     '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html',
     'bus_error'),
    ('srun 1', 'srun: error: gpu-node-07: task 0: Exited with exit code 1', None),
    # ProcessGroupNCCL.cpp: c10::str("NCCL communicator was aborted on rank ", rank_, ". ", msg)
    ('nccl aborted', 'RuntimeError: NCCL communicator was aborted on rank 2.',
     'nccl_error'),
    ('nccl aborted timeout', 'RuntimeError: NCCL communicator was aborted on rank 2. Original reason for '
     'the abort was: Watchdog caught collective operation timeout.', 'nccl_timeout'),
    # CPython faulthandler on SIGABRT, after a C++ runtime's abort (a torchtitan XPU report)
    ('fatal abort', 'terminate called without an active exception\nFatal Python error: Aborted', 'aborted'),
    # A job SLURM stopped: slurmstepd's "*** JOB %u ON %s CANCELLED AT %s DUE TO TIME LIMIT ***" (or
    # scancel's, with no reason), srun's "Job step aborted: Waiting up to %d seconds for job step to
    # finish." and its per-task report of the SIGKILL (`task 0: Killed`): `cancelled`, the kill
    # not the OOM killer's; with the cgroup's `oom-kill event` it is.
    ('slurm time limit', 'slurmstepd: error: *** STEP 1234.0 ON node01 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME LIMIT ***\n'
     'srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\nsrun: error: node01: task 0: Killed', 'cancelled'),
    ('slurm scancel', 'srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n'
     'slurmstepd: error: *** JOB 1234 ON node01 CANCELLED AT 2024-01-01T10:00:00 ***\nsrun: error: node01: task 0: Killed', 'cancelled'),
    ('slurm oom then cancelled', 'slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1234.0. Some of your processes may have been killed by the cgroup out-of-memory handler.\n'
     'srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\nsrun: error: node01: task 0: Killed', 'host_oom'),
    # kubernetes pkg/kubelet/eviction/helpers.go: nodeLowMessageFmt "The node was low on resource: %v. "
    ('k8s eviction', 'Status: Failed\nReason: Evicted\nMessage: The node was low on resource: memory. Container trainer was using 60Gi, which exceeds its request of 32Gi.',
     'host_oom'),
    # LSF's job report: its termination reason (IBM Spectrum LSF 10.1 "Termination reasons displayed by
    # bacct, bhist, and bjobs": `TERM_RUNLIMIT: job killed after reaching LSF run time limit.`), then
    # openlava lsf/daemons/sbatchd/job.c's `Exited with exit code %d` / `Exited with signal termination: %s`
    ('lsf run limit', 'TERM_RUNLIMIT: job killed after reaching LSF run time limit.\nExited with exit code 140.', 'cancelled'),
    ('lsf run limit sigkill', 'TERM_RUNLIMIT: job killed after reaching LSF run time limit.\nExited with exit code 137.',
     'cancelled'),
    ('lsf memory limit', 'TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.\nExited with exit code 137.',
     'host_oom'),
    ('lsf owner', 'TERM_OWNER: job killed by owner.\nExited with exit code 130.', 'cancelled'),
    ('lsf preempted', 'TERM_PREEMPT: job killed after preemption.\nExited with exit code 143.', 'cancelled'),
    ('lsf signal termination', 'Exited with signal termination: Terminated.', 'cancelled'),
    # srun's per-task report of the cgroup's kill (SchedMD/slurm src/srun/launch.c "%s: %s %s: Out Of
    # Memory"): the host's memory, though the host's name says gpu; an OOM's words with a GPU named still
    # say the GPU's
    ('srun task oom', 'srun: error: gpu-node-07: task 0: Out Of Memory', 'host_oom'),
    ('srun tasks oom', 'srun: error: a100-gpu-3: tasks 0-3: Out Of Memory', 'host_oom'),
    ('host named gpu, out of memory', 'gpu-node-07: error: out of memory', 'host_oom'),
    ('gpu allocator out of memory', 'Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.26GiB', 'cuda_oom'),
    # PBS's mom over a limit: openpbs src/resmom/mom_main.c `=>> PBS: job killed: %s` with
    # `walltime %lu exceeded limit %lu`, `cput ...`, `mem %lukb exceeded limit %lukb`, `vmem ...`
    ('pbs walltime', '=>> PBS: job killed: walltime 86415 exceeded limit 86400', 'cancelled'),
    ('pbs walltime then killed', '=>> PBS: job killed: walltime 86415 exceeded limit 86400\n'
     '/var/spool/pbs/mom_priv/jobs/1234.pbs01.SC: line 12: 4242 Killed                  python train.py', 'cancelled'),
    ('pbs cput', '=>> PBS: job killed: cput 3601 exceeded limit 3600', 'cancelled'),
    ('pbs mem', '=>> PBS: job killed: mem 33554432kb exceeded limit 32000000kb', 'host_oom'),
    ('pbs vmem', '=>> PBS: job killed: vmem 33554432kb exceeded limit 32000000kb', 'host_oom'),
    # the kubelet's other evictions (pkg/kubelet/eviction/helpers.go: nodeLowMessageFmt,
    # podEphemeralStorageMessageFmt, containerEphemeralStorageMessageFmt, emptyDirMessageFmt,
    # nodeConditionMessageFmt) and a container the kernel killed (`kubectl get pods` STATUS)
    ('k8s eviction disk', 'Status: Failed\nReason: Evicted\nMessage: The node was low on resource: ephemeral-storage. Container trainer was using 120Gi, which exceeds its request of 0.',
     'disk_full'),
    ('k8s pod storage limit', 'Reason: Evicted\nMessage: Pod ephemeral local storage usage exceeds the total limit of containers 20Gi.',
     'disk_full'),
    ('k8s container storage limit', 'Reason: Evicted\nMessage: Container trainer exceeded its local ephemeral storage limit "20Gi".',
     'disk_full'),
    ('k8s emptydir limit', 'Reason: Evicted\nMessage: Usage of EmptyDir volume "cache" exceeds the limit "10Gi".', 'disk_full'),
    ('k8s disk pressure', 'Reason: Evicted\nMessage: The node had condition: [DiskPressure].', 'disk_full'),
    ('k8s memory pressure', 'Reason: Evicted\nMessage: The node had condition: [MemoryPressure].', 'host_oom'),
    ('k8s evicted', 'NAME        READY   STATUS    RESTARTS   AGE\ntrainer-0   0/1     Evicted   0          10m', 'cancelled'),
    # the wrappers around a training process: CPython subprocess.CalledProcessError.__str__ ("Command '%s'
    # died with %r." with signal.Signals, else "returned non-zero exit status %d."), raised by accelerate
    # launch and other launchers; Ray's RayTaskError(<cause class>) before the cause's own line
    # (ray/exceptions.py), Amazon ECS's stopped reason as AWS Batch reports it (ECS developer guide,
    # "Troubleshooting Amazon ECS OutOfMemoryError errors")
    ('subprocess sigkill', "subprocess.CalledProcessError: Command '['/usr/bin/python', 'train.py']' died with <Signals.SIGKILL: 9>.",
     'host_oom'),
    ('subprocess sigterm', "subprocess.CalledProcessError: Command '['/usr/bin/python', 'train.py']' died with <Signals.SIGTERM: 15>.",
     'cancelled'),
    ('subprocess sigsegv', "subprocess.CalledProcessError: Command '['/usr/bin/python', 'train.py']' died with <Signals.SIGSEGV: 11>.",
     'segfault'),
    ('subprocess exit 1', "subprocess.CalledProcessError: Command '['/usr/bin/python', 'train.py']' returned non-zero exit status 1.",
     None),
    ('ray task cuda oom', 'ray.exceptions.RayTaskError(OutOfMemoryError): ray::TorchTrainer.train() (pid=1234, ip=10.0.0.1, repr=TorchTrainer)\n'
     'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.', 'cuda_oom'),
    # Ray's raylet (src/ray/raylet/node_manager.cc): a worker's lost connection lists causes to consider,
    # which are none of them said; its memory monitor's count says which it was
    ('ray potential causes', 'ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n'
     'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. '
     'There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. '
     '(3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.', None),
    ('ray potential causes then oom count', 'Worker unexpectedly exits with a connection error code 2. End of file. '
     'There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. '
     '(3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.\n'
     '(raylet) node_manager.cc:3035: 1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: ab37, IP: 172.28.0.12)',
     'host_oom'),
    ('ecs container oom', 'Essential container in task exited\nOutOfMemoryError: Container killed due to memory usage', 'host_oom'),
    ('k8s evicted event', 'Events:\n  Type     Reason   Age   From     Message\n  Warning  Evicted  1m    kubelet  Pod was evicted',
     'cancelled'),
    ('k8s evicted event disk', '  Warning  Evicted  1m  kubelet  The node was low on resource: ephemeral-storage. '
     'Threshold quantity: 10Gi, available: 1Gi. Container trainer was using 50Gi, which exceeds its request of 0.', 'disk_full'),
    ('k8s preempted', '  Normal  Preempted  1m  default-scheduler  Preempted by pod 6f1c3a2e-1b2c-4d5e-8f90-123456789abc on node gpu-1',
     'cancelled'),
    ('k8s job deadline', '  Warning  DeadlineExceeded  1m  job-controller  Job was active longer than specified deadline',
     'cancelled'),
    ('k8s oomkilled', 'NAME        READY   STATUS      RESTARTS      AGE\ntrainer-0   0/1     OOMKilled   3 (40s ago)   10m',
     'host_oom'),
    # zsh's job report for SIGKILL (zsh-users/zsh Src/jobs.c printjob, Src/signames2.awk `killed`),
    # alone, glued to the bar it cut short, and without the pid (no `-l`)
    ('zsh job killed', '[1]  + 26478 killed     python train.py', 'host_oom'),
    ('zsh job killed glued', 'Loading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s][1]    26478 killed     '
     'python test.py', 'host_oom'),
    ('zsh job killed no pid', '[2]  - killed     python train.py', 'host_oom'),
    # libstdc++'s terminate handler aborts on an uncaught C++ exception: the CUDA error its `what():`
    # names is the failure (pytorch c10/cuda/CUDAException.h C10_CUDA_CHECK, thrown from the NCCL
    # work-cleanup thread), whatever abort or srun's node-failure lines come after it
    ('terminate cuda error', "terminate called after throwing an instance of 'c10::CUDAError'\n"
     '  what():  CUDA error: unknown error\nException raised from query at ../aten/src/ATen/cuda/CUDAEvent.h:91 '
     '(most recent call first):\nsrun: error: Node failure on node49\n'
     'srun: Job step aborted: Waiting up to 62 seconds for job step to finish.', 'cuda_error'),
    ('terminate cuda error core dumped', "terminate called after throwing an instance of 'c10::CUDAError'\n"
     '  what():  CUDA error: unknown error\nAborted (core dumped)', 'cuda_error'),
]


@pytest.mark.parametrize(("form", "tail", "kind"), GPU_AND_LAUNCHER_FORMS,
                         ids=[f[0] for f in GPU_AND_LAUNCHER_FORMS])
def test_gpu_faults_and_launcher_exit_codes_name_their_kind(form: str, tail: str, kind: str | None) -> None:
    assert failure_kind(f"step 7 loss 2.5\n{tail}\n") == kind


# A wrapper line whose cause follows it: the event waits for the cause, so the kind is the
# cause's. Hydra hydra/_internal/utils.py (`Error executing job with overrides: {overrides}`,
# then the exception, then `Set the environment variable HYDRA_FULL_ERROR=1 ...`); libstdc++'s
# verbose terminate handler (`terminate called after throwing an instance of '...'` then
# `  what():  ...`); torchelastic's ChildFailedError and its Root Cause block.
WRAPPED = [
    ('hydra', "Error executing job with overrides: ['model=llama', 'trainer.devices=8']\n"
     'Traceback (most recent call last):\n  File "/x/train.py", line 10, in main\n'
     '    trainer.fit(model)\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n\n'
     'Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.',
     'cuda_oom', 'torch.cuda.OutOfMemoryError: CUDA out of memory at step 7 (cuda_oom)'),
    ('terminate', "terminate called after throwing an instance of 'c10::DistBackendError'\n"
     '  what():  [PG 0 Rank 3] Process group watchdog thread terminated with exception: CUDA error: '
     'an illegal memory access was encountered\nAborted (core dumped)',
     'illegal_memory_access', '[PG 0 Rank 3] Process group watchdog thread terminated with '
     'exception: CUDA error: an illegal memory access was encountered at step 7 (illegal_memory_access)'),
    ('elastic', 'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n'
     '============================================================\ntrain.py FAILED\n'
     '------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n'
     '------------------------------------------------------------\nRoot Cause (first observed failure):\n'
     '[0]:\n  time      : 2024-01-01_00:00:00\n  host      : node1\n  rank      : 0 (local_rank: 0)\n'
     '  exitcode  : -11 (pid: 123)\n  error_file: <N/A>\n'
     '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n'
     '============================================================',
     'segfault', 'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: at step 7 (segfault)'),
]


@pytest.mark.parametrize(("form", "tail", "kind", "message"), WRAPPED, ids=[f[0] for f in WRAPPED])
def test_a_wrapper_takes_the_kind_of_the_cause_after_it(
        tmp_path: Path, form: str, tail: str, kind: str, message: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step 7 loss 2.5\n{tail}\n")
    (event,) = read_log(log).events
    assert (event.failure, event.message) == (kind, message)


@pytest.mark.parametrize("hint", sorted(set(HINTS)))
def test_has_hint_finds_every_hint_anywhere_in_any_case(hint: str) -> None:
    """has_hint scans one pattern of all the hints: each is found at a line's start, middle and end,
    in capitals too, and a line cut one character short of it holds none."""
    for line in (hint, f"x {hint} y", f"step 12 {hint.upper()}"):
        assert has_hint(line), line
    assert not has_hint(hint[:-1]) or any(other in hint[:-1] for other in HINTS)


def test_has_hint_is_false_for_a_plain_training_line() -> None:
    assert not has_hint("step 120/5000 | loss 2.3412 | lr 3.0e-04 | 412 ms/it")


def _long_block(middle: str) -> str:
    """Plain training lines, past the size scanned by line shape, with `middle` among them."""
    lines = [f"step {step}/5000 | loss {3 / step:.4f} | lr 3.0e-04 | {400 + step % 7} ms/it"
             for step in range(1, SHAPES_ABOVE // 20)]
    return "\n".join([*lines[:100], middle, *lines[100:]])


@pytest.mark.parametrize("hint", sorted(set(HINTS)))
def test_a_long_block_scanned_by_line_shape_still_finds_every_hint(hint: str) -> None:
    assert block_has_hint(_long_block(f"[rank3]: at step 412 {hint.upper()} (12 of 16)"))


def test_a_long_block_of_training_lines_holds_no_hint() -> None:
    assert not block_has_hint(_long_block("step 5000/5000 | loss 0.0012"))


def test_no_corpus_log_holding_a_failure_hint_is_missed_by_its_block_scan() -> None:
    fixtures = Path(__file__).parent.parent / "fixtures"
    logs = [path for path in fixtures.rglob("*") if path.suffix in (".log", ".txt") and path.stat().st_size > SHAPES_ABOVE]
    assert len(logs) > 100
    for path in logs:
        text = path.read_text("utf-8", "replace")
        assert block_has_hint(text) or not any(has_hint(line) for line in text.split("\n")), path


# Forms logged as a warning: no crash on their own (the error after them raises it).
WARNING_FORMS = {"xla bfc", "sm not compatible"}


# One vocabulary: each form above, alone in a log, is read through `train status --log` (the
# hint scan that lets a block be watched, then the crash-line test) to a crash of its kind.
@pytest.mark.parametrize(("form", "tail", "kind"), MESSAGE_FORMS + GPU_AND_LAUNCHER_FORMS,
                         ids=[f[0] for f in MESSAGE_FORMS + GPU_AND_LAUNCHER_FORMS])
def test_every_form_is_read_through_train_status(tmp_path: Path, form: str, tail: str,
                                                  kind: str | None) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step 7 loss 2.5\n{tail}\n")
    named = [line.lower() for line in tail.split("\n") if failure_kind(line)]
    assert all(has_hint(line) and any(hint in line for hint in KIND_HINTS) for line in named)
    crashes = [event.failure for event in read_log(log).events if event.kind == "crashed"]
    assert (crashes[-1] if crashes else None) == (None if form in WARNING_FORMS else kind)


CORPUS = Path(__file__).parent.parent / "fixtures" / "corpus" / "crash"

# Lines that name a failure kind but are no exception, signal or launcher line: each is a crash
# line of its own (before, the log reader raised no event for them).
KIND_ONLY_LINES = [
    ("b02/caffe_check_failed_nccl.txt", "nccl_error"),  # glog `Check failed: result == ncclSuccess`
    ("b01/lc0_cuda_error_oom.txt", "cuda_oom"),  # `error CUDA error: out of memory (...cc:442`
    ("b01/relion_cudacustomallocator.txt", "cuda_oom"),  # `CudaCustomAllocator out of memory`
    ("b01/tf_9489_cublas_handle.txt", "cublas_error"),  # `failed to create cublas handle: ...`
    ("b01/ipnet_thc_assert.txt", "device_assert"),  # THC's `Assertion `srcIndex < ...` failed.`
    ("b03/apex_thcudacheck_error_74.txt", "illegal_memory_access"),  # `THCudaCheck FAIL ... misaligned`
    ("b03/rl_swarm_oom_killer_trace.txt", "host_oom"),  # dmesg `p2pd invoked oom-killer: ...`
    ("b02/graphwriter_driver_too_old_6050.txt", "cuda_driver"),  # `The NVIDIA driver ... too old`
]


@pytest.mark.parametrize(("name", "kind"), KIND_ONLY_LINES, ids=[n for n, _ in KIND_ONLY_LINES])
def test_a_line_that_names_a_kind_is_a_crash_line(name: str, kind: str) -> None:
    crashes = [event for event in read_log(CORPUS / name).events if event.kind == "crashed"]
    assert crashes and crashes[-1].failure == kind


# A cause printed after the line that raised the event gives the event its kind; a generic line
# after a cause (`Aborted (core dumped)`) leaves it.
LATER_CAUSES = [
    ("b01/maskrcnn_dmlc_cudamalloc.txt", "cuda_oom"),  # `what(): ... cudaMalloc fail` / `ed: out of memory`
    ("b02/anomaly_unknown_conv_algorithm.txt", "cudnn_error"),  # `UnknownError: 2 root error(s)`, then
    # `(0) Unknown: Failed to get convolution algorithm`
    ("b04/forge_wrapped_oom_gradio_traceback.txt", "cuda_oom"),  # `CUDA kernel errors might be
    # asynchronously reported`, then `CUDA error: out of memory`
    ("b06/lmdeploy_no_kernel_image_aborted.txt", "no_kernel_image"),  # then `Aborted (core dumped)`
]


@pytest.mark.parametrize(("name", "kind"), LATER_CAUSES, ids=[n for n, _ in LATER_CAUSES])
def test_the_crash_takes_the_most_specific_kind_its_failure_prints(name: str, kind: str) -> None:
    (event,) = [event for event in read_log(CORPUS / name).events if event.kind == "crashed"]
    assert event.failure == kind and event.message.endswith(f"({kind})")


# A warning wrapped over lines stays a warning: TensorFlow's bfc_allocator.cc LOG(WARNING)
# `Allocator (GPU_0_bfc) ran out of memory trying to allocate ... The caller indicates that this is
# not a failure, ...`, pasted with its message below its level (and the page's autolink of
# `bfc_allocator.cc` as `http://bfc_allocator.cc`), or with its rest indented under it.
WRAPPED_WARNINGS = [
    "2017-07-02 15:57:33.230281: W tensorflow/core/common_runtime/http://bfc_allocator.cc:217]\n"
    " Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.59GiB. The\n"
    " caller indicates that this is not a failure, but may mean that there \n"
    "could be performance gains if more memory is available.",
    "W tensorflow/core/common_runtime/bfc_allocator.cc:217] Allocator (GPU_0_bfc) ran out of memory\n"
    "    trying to allocate 3.90GiB. The caller indicates that this is not a failure, but may mean\n"
    "    that there could be performance gains if more memory is available.",
    "W tensorflow/core/common_runtime/bfc_allocator.cc:217]\n"
    "Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.1GiB. The caller indicates that"
    " this is not a failure.",
]


# A line that names a kind but is logged as information or a warning is no crash: training
# goes on after it. NCCL's param.cc `INFO(NCCL_ENV, "%s set by environment to %s")`; PyTorch's
# c10/cuda/CUDAFunctions.cpp TORCH_WARN `CUDA initialization: Found no NVIDIA driver ...`;
# TensorFlow's BFC allocator, whose warning says it is not a failure.
NOT_FAILURES = [
    "NCCL INFO NCCL_TIMEOUT set by environment to 1800",
    "/usr/lib/python3/site-packages/torch/cuda/__init__.py:83: UserWarning: CUDA initialization: "
    "Found no NVIDIA driver on your system. (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:109.)",
    "2019-02-11 16:42:08.131786: W tensorflow/core/common_runtime/bfc_allocator.cc:211] Allocator "
    "(GPU_0_bfc) ran out of memory trying to allocate 2.19GiB. The caller indicates that this is "
    "not a failure, but may mean that there could be performance gains if more memory were available.",
    *WRAPPED_WARNINGS,
]


@pytest.mark.parametrize("line", NOT_FAILURES, ids=["nccl info", "user warning", "tf bfc warning",
                                                     "wrapped below", "wrapped indented", "wrapped bare"])
def test_a_kind_named_in_a_warning_is_no_crash(tmp_path: Path, line: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step 1 loss 2.5\n{line}\nstep 2 loss 2.4\nstep 3 loss 2.3\n")
    snap = read_log(log)
    assert snap.events == () and snap.status != "crashed"


def test_an_error_after_a_wrapped_warning_is_a_crash(tmp_path: Path) -> None:
    # the line after the warning's wrapped rest, not indented, is read again
    log = tmp_path / "train.log"
    log.write_text(f"step 1 loss 2.5\n{WRAPPED_WARNINGS[1]}\n"
                   "E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 3.90G "
                   "(4187593113 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY\n")
    assert [event.failure for event in read_log(log).events if event.kind == "crashed"] == ["cuda_oom"]


def test_the_error_after_a_warning_takes_its_kind(tmp_path: Path) -> None:
    # tensorflow/tensorflow#1803: the allocator's warning, then the error it causes
    log = tmp_path / "train.log"
    log.write_text(
        "step 1 loss 2.5\n"
        "W tensorflow/core/common_runtime/bfc_allocator.cc:271] Ran out of memory trying to "
        "allocate 2.0KiB.  See logs for memory state.\n"
        "W tensorflow/core/framework/op_kernel.cc:926] Internal: Dst tensor is not initialized.\n"
        "E tensorflow/core/common_runtime/executor.cc:334] Executor failed to create kernel. "
        "Internal: Dst tensor is not initialized.\n"
        "\t [[Node: zeros_6 = Const[dtype=DT_FLOAT, _device=\"/job:localhost/replica:0/task:0/gpu:0\"]()]]\n"
        "Traceback (most recent call last):\n  File \"convolutional.py\", line 326, in <module>\n"
        "    tf.app.run()\n"
        "tensorflow.python.framework.errors.InternalError: Dst tensor is not initialized.\n")
    (event,) = read_log(log).events
    assert event.failure == "cuda_oom"


def test_the_exception_line_after_kind_lines_tells_the_crash() -> None:
    # CUDA's per-thread `Assertion ... failed` lines raise the crash; the `RuntimeError` the
    # traceback ends on names it (message, signature: what lessons match), the first line stays
    # its identity (tests/fixtures/crash/device_side_assert.log)
    log = Path(__file__).parent.parent / "fixtures" / "crash" / "device_side_assert.log"
    (event,) = read_log(log).events
    assert event.message == "RuntimeError: CUDA error: device-side assert triggered (device_assert)"
    assert event.signature == "RuntimeError: CUDA error: device-side assert triggered"
    assert "Assertion `srcIndex < srcSelectDimSize` failed" in event.line


# A failure the job survived is not how it ended: FreeVC's log goes on to the next epoch after a
# DataLoader worker's segfault (tests/fixtures/corpus/crash/b07, FreeVC issue paste); a bar's one
# closing redraw past the failure, or a launcher's report after it, does not count as going on.
# Read as `train status --log` shows it: the failure of the last crashed event, None without one.
@pytest.mark.parametrize(("tail", "kind"), [
    ("INFO:freevc:Train Epoch: 1515 [70%]\nERROR: Unexpected segmentation fault encountered in worker.\n"
     "INFO:freevc:====> Epoch: 1515\nINFO:freevc:Train Epoch: 1516 [5%]\n", None),
    ("step 7 loss 2.5\nERROR: Unexpected segmentation fault encountered in worker.\nstep 8 loss 2.4\n", None),
    ("step 7 loss 2.5\nERROR: Unexpected segmentation fault encountered in worker.\n"
     "exitcode  : -11 (pid: 1)\n", "segfault"),
    ("Epoch 0:  50%|#####     | 50/100 [00:10<00:10]\nKilled\n"
     "Epoch 0:  51%|#####     | 51/100 [00:10<00:10]\n", "host_oom"),
])
def test_a_failure_the_job_went_on_past_is_not_its_end(tmp_path: Path, tail: str,
                                                       kind: str | None) -> None:
    log = tmp_path / "train.log"
    log.write_text(tail)
    crashes = [event.failure for event in read_log(log).events if event.kind == "crashed"]
    assert (crashes[-1] if crashes else None) == kind


def test_a_run_whose_epochs_go_on_after_a_worker_segfault_is_not_crashed(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("INFO:freevc:Train Epoch: 1515 [70%]\n"
                   "ERROR: Unexpected segmentation fault encountered in worker.\n"
                   "INFO:freevc:====> Epoch: 1515\nINFO:freevc:Train Epoch: 1516 [5%]\n")
    snap = read_log(log)
    assert snap.epoch == 1516.0 and snap.status != "crashed"


def test_tensorflow_1s_see_above_line_ends_its_traceback() -> None:
    # TensorFlow 1.x session errors: `ResourceExhaustedError (see above for traceback): OOM when
    # allocating tensor ...` (tests/fixtures/corpus/crash/b07, keras-yolo2 PR 382 paste)
    log = CORPUS / "b07" / "keras_yolo2_oom_by_allocator_hint.txt"
    (event,) = read_log(log).events
    assert event.failure == "cuda_oom"
    assert event.message.startswith("ResourceExhaustedError (see above for traceback): OOM when")


# Crash batches b08-b10's first-sight misses, each a shape: a shell's `Killed` glued to the bar it
# cut short, Julia's and torchelastic's Ctrl-C, a launcher's verdict after an 800-character command.
SHAPES = [
    ("b08/chatglm_loading_shards_bar_killed.txt", "host_oom"),  # `... 1.28it/s]Killed`
    ("b09/tsunami_jl_fit_bar_julia_interrupt_exception.txt", "interrupted"),  # `ERROR: InterruptException:`
    ("b09/deepspeed_chat_sigkill_handler_return_code_minus9.txt", "host_oom"),  # `[...] exits with return code = -9`
    # torchelastic's `^CW0616 ... api.py:739] Received 2 death signal, shutting down workers`, then a
    # DataLoader's atexit traceback cut before its exception line
    ("b10/lerobot_ctrl_c_glued_w0616_death_signal_2_atexit.txt", "interrupted"),


    # crash batch b11: a Markdown-bold `**Killed**` as pasted; a zh_CN shell's `已杀死`
    ("b11/fastmaskrcnn_iter_line_bold_killed_2017.txt", "host_oom"),
    ("b11/dreamerv3_metrics_then_zh_locale_killed.txt", "host_oom"),
]


# The shell's `Killed` in other locales: glibc's strsignal(SIGKILL) translations (bminor/glibc
# po/zh_CN.po, ja.po, de.po, ru.po, ... msgid "Killed"), as bash prints a job's status, alone or
# after the script's line and pid; and the English word in Markdown emphasis or code, as pasted.
KILLED_FORMS = ["已杀死", "強制結束", "強制終了", "죽었음", "Getötet", "Processus arrêté", "Terminado (killed)",
                "Ucciso", "Morto", "Убито", "Вбито", "Unicestwiony", "Zabit (SIGKILL)",
                "train.sh: 第 3 行： 12345 已杀死               python train.py",
                "run.sh: Zeile 3: 12345 Getötet                 python train.py",
                "**Killed**", "`Killed`", "*Killed*"]


@pytest.mark.parametrize("line", KILLED_FORMS)
def test_the_shells_killed_in_any_locale_or_emphasis_is_host_oom(tmp_path: Path, line: str) -> None:
    if "Killed" not in line:  # emphasis is the line cleaning's (`clean`), words the vocabulary's
        assert failure_kind(f"step 7 loss 2.5\n{line}\n") == "host_oom"
    log = tmp_path / "train.log"
    log.write_text(f"step 7 loss 2.5\n{line}\n")
    assert [event.failure for event in read_log(log).events if event.kind == "crashed"] == ["host_oom"]


def test_emphasis_is_not_taken_from_a_slurm_banner() -> None:
    # slurmstepd's `*** JOB ... CANCELLED AT ... ***` is no Markdown emphasis: its stars stay
    banner = "*** JOB 1234 ON node01 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME LIMIT ***"
    assert clean(banner) == banner and clean("**Killed**") == "Killed"


@pytest.mark.parametrize(("name", "kind"), SHAPES, ids=[n for n, _ in SHAPES])
def test_a_crash_reads_its_kind_whatever_shape_its_last_line_has(name: str, kind: str) -> None:
    crashes = [event for event in read_log(CORPUS / name).events if event.kind == "crashed"]
    assert crashes and crashes[-1].failure == kind


# Tails that are no crash though their lines carry a failure's words: warnings, NCCL's information,
# loss-scale overflow skips, advice about memory, retries the job went past. Each line's shape is
# from the printing code: vLLM V0 worker/model_runner.py (`CUDA graphs can take additional 1~3 GiB
# memory per GPU. If you are running out of memory, consider decreasing ...`), DeepSpeed
# runtime/fp16/loss_scaler.py (`[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale:`)
# and zero/stage3.py (`pytorch allocator cache flushes since last step`), apex amp scaler
# (`Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to`), Megatron-LM
# training.py (`number of skipped iterations`), NCCL's INFO lines, TensorFlow's bfc_allocator
# warning, PyTorch's ProcessGroupNCCL destructor warning.
NOT_CRASHES = [
    # zsh's job report for a job that ended well (zsh-users/zsh Src/jobs.c printjob's `done`)
    ('zsh job done', 'step 8 loss 2.4\n[1]  + 26478 done       python train.py'),
    ('vllm cuda graphs advice', "INFO 06-01 10:00:00 model_runner.py:1004] CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.\n"
     "INFO 06-01 10:00:10 model_runner.py:1200] Graph capturing finished in 10 secs.\nINFO:     Application startup complete."),
    ('vllm kv info', 'INFO 06-01 10:00:00 [gpu_worker.py:227] Available KV cache memory: 52.30 GiB\n'
     'INFO 06-01 10:00:00 [kv_cache_utils.py:715] GPU KV cache size: 1,000,000 tokens'),
    ('deepspeed overflow', '[2024-01-01 10:00:00,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768\nstep 8 loss 2.4'),
    ('deepspeed cache flush', '[2024-01-01 10:00:00,000] [WARNING] [stage3.py:1850:step] 1 pytorch allocator cache flushes since last step. this happens when there is high memory pressure and is detrimental to performance.\nstep 8 loss 2.4'),
    ('apex overflow', 'Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0\nstep 8 loss 2.4'),
    ('megatron skipped', ' iteration       10/     100 | consumed samples:          160 | lm loss: 7.000000E+00 | loss scale: 65536.0 | grad norm: 1.000 | number of skipped iterations:   1 | number of nan iterations:   0 |'),
    ('nccl info', 'node1:1:1 [0] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.\nnode1:1:1 [0] NCCL INFO Call to connect returned Connection refused, retrying\nstep 8 loss 2.4'),
    ('tf allocator warning', '2024-01-01 10:00:00.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.26GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.\nstep 8 loss 2.4'),
    ('nccl destroy warning', 'step 8 loss 2.4\n[rank0]:[W1201 10:00:00.000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process. (function operator())'),
    # LSF's report of a job that ended well (openlava lsf/daemons/sbatchd/job.c `Started at %s`,
    # `Results reported at %s`, `Successfully completed`; IBM LSF adds `Terminated at %s`)
    ('lsf done report', 'epoch 650/650 loss 0.0009\n------------------------------------------------------------\n'
     'Sender: LSF System <lsfadmin@node1>\nSubject: Job 42: <train> in cluster <c1> Done\n\n'
     'Started at Fri Dec  1 06:20:30 2023\nTerminated at Fri Dec  1 16:38:59 2023\n'
     'Results reported at Fri Dec  1 16:38:59 2023\n\nSuccessfully completed.\n\nResource usage summary:\n\n'
     '    CPU time :                                   37432.22 sec.\n    Max Memory :                                 1970 MB'),
    ('k8s completed', 'NAME        READY   STATUS      RESTARTS   AGE\ntrainer-0   0/1     Completed   0          10m'),
    ('k8s container completed', '    State:          Terminated\n      Reason:       Completed\n      Exit Code:    0\n'
     '      Started:      Mon, 01 Jan 2024 10:00:00 +0000\n      Finished:     Mon, 01 Jan 2024 11:00:00 +0000'),
    ('oom caught and retried', 'INFO:root:Caught CUDA out of memory, retrying with batch size 16\nstep 8 loss 2.4\nstep 9 loss 2.3'),
    # facebookresearch/fairseq fairseq/trainer.py: _log_oom's logger.warning("OOM: Ran out of memory
    # with exception: {}"), then "attempting to recover from OOM in forward/backward pass"
    ('fairseq oom recovered', '2024-01-01 10:00:00 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 15.78 GiB total capacity)\n'
     '2024-01-01 10:00:00 | WARNING | fairseq.trainer | attempting to recover from OOM in forward/backward pass'),
]


# A missing file or import named by a line the job went past, or by no error it raised, is not its
# kind: torchvision's image-extension UserWarning, a shell's `ls`, torchelastic's SIGTERM to the
# other workers after one failed (api.py `Sending process %s closing signal %s`).
@pytest.mark.parametrize(("form", "tail", "kind"), [
    ('torchvision warning', "/opt/venv/lib/python3.10/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python extension: 'libc10_cuda.so: cannot open shared object file: No such file or directory'\n"
     'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\nKeyError: \'labels\'', None),
    ('ls then value error', "ls: cannot access 'ckpt': No such file or directory\nTraceback (most recent call last):\n"
     '  File "train.py", line 3, in <module>\nValueError: bad shape', None),
    ('elastic closing sigterm', 'WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 1235 closing signal SIGTERM\n'
     'ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 1234) of binary: /usr/bin/python',
     None),
    # the exit line of `python -m` (Lib/runpy.py), then a GUI's own closing words (a ComfyUI node)
    ('runpy then finished', "C:\\Python311\\python.exe: Error while finding module specification for 'accelerate.commands.launch' (ModuleNotFoundError: No module named 'accelerate')\n"
     'Train finished\nPrompt executed in 2.44 seconds', 'import_error'),
    # a Metaflow step's traceback (metaflow/runtime.py's `[run/step/task (pid N)] ` after the stamp),
    # each line also tagged by the task's own id
    ('metaflow prefixed', '\n'.join('2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] [09c561ee-a44c-4795-967c-7183a83b3160] ' + line for line in (
        'Traceback (most recent call last):', '  File "/opt/conda/lib/python3.7/site-packages/torch/serialization.py", line 379, in save',
        '    _save(obj, opened_zipfile, pickle_module, pickle_protocol)', 'OSError: [Errno 28] No space left on device')),
     'disk_full'),
    ('import then wrapper', "ModuleNotFoundError: No module named 'deepspeed'\n"
     'torch.distributed.elastic.multiprocessing.errors.ChildFailedError:', 'import_error'),
])
def test_a_raised_errors_kind_is_its_own(tmp_path: Path, form: str, tail: str, kind: str | None) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step 7 loss 2.5\n{tail}\n")
    crashes = [event.failure for event in read_log(log).events if event.kind == "crashed"]
    assert crashes and crashes[-1] == kind
    assert failure_kind(tail) == kind


@pytest.mark.parametrize(("form", "tail"), NOT_CRASHES, ids=[f[0] for f in NOT_CRASHES])
def test_a_tail_that_is_no_crash_reports_none(tmp_path: Path, form: str, tail: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step 7 loss 2.5\n{tail}\n")
    assert [event for event in read_log(log).events if event.kind == "crashed"] == []


def test_a_logged_oom_warning_then_the_raised_oom_is_a_crash(tmp_path: Path) -> None:
    """The warning is not the crash; the OOM raised after it (fairseq's raise_oom) still is."""
    log = tmp_path / "train.log"
    log.write_text("step 7 loss 2.5\n" + NOT_CRASHES[-1][1] + "\nTraceback (most recent call last):\n"
                   '  File "train.py", line 3, in <module>\n'
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB\n")
    assert [event.failure for event in read_log(log).events if event.kind == "crashed"] == ["cuda_oom"]


# A traceback whose lines a paste ran together (a comment box that lost its newlines; srun -l's
# `10: ` task labels between them): its exception after the last frame ends it. The NCCL strings
# are PyTorch ProcessGroupNCCL's `NCCL error in: %s:%d, unhandled system error (run with
# NCCL_DEBUG=INFO for details), NCCL version %s` and NCCL src/init.cc ncclGetErrorString's.
RUN_ON = [
    ('one paragraph', 'Traceback (most recent call last): File "train.py", line 10, in <module> loss.backward() '
     'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB', 'cuda_oom',
     'torch.cuda.OutOfMemoryError: CUDA out of memory at step 7 (cuda_oom)'),
    ('srun labels', 'File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1906, in broadcast '
     '10: work = default_pg.broadcast([tensor], opts) 10: torch.distributed.DistBackendError: NCCL error in: '
     '../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, unhandled system error (run with NCCL_DEBUG=INFO for details), '
     'NCCL version 2.18.5 10: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
     'nccl_error', 'torch.distributed.DistBackendError: NCCL error in: '),
    ('chained', 'Traceback (most recent call last): File "a.py", line 3, in f KeyError: \'x\' During handling of the above '
     'exception, another exception occurred: Traceback (most recent call last): File "a.py", line 5, in <module> '
     'ValueError: bad config', None, 'ValueError: bad config at step 7'),
]


@pytest.mark.parametrize(("form", "tail", "kind", "message"), RUN_ON, ids=[f[0] for f in RUN_ON])
def test_a_traceback_run_on_in_one_line_ends_at_its_exception(
        tmp_path: Path, form: str, tail: str, kind: str | None, message: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step 7 loss 2.5\n{tail}\n")
    (event,) = [event for event in read_log(log).events if event.kind == "crashed"]
    assert event.failure == kind and event.message.startswith(message)


def test_a_frame_line_without_an_exception_holds_none() -> None:
    assert glued_exception('File "/x/trainer.py", line 1906, in _inner_training_loop') is None
    assert glued_exception('    raise RuntimeError("stopped")') is None


def test_the_crash_message_is_the_exception_without_its_tags(tmp_path: Path) -> None:
    """Metaflow's runtime head (metaflow/runtime.py) and a task's own id tag are not the message."""
    log = tmp_path / "train.log"
    log.write_text("step 7 loss 2.5\n2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] "
                   "[09c561ee-a44c-4795-967c-7183a83b3160] OSError: [Errno 28] No space left on device\n")
    (event,) = read_log(log).events
    assert event.message == "OSError: [Errno 28] No space left on device at step 7 (disk_full)"


@pytest.mark.parametrize(("line", "cleaned"), [
    ("**RuntimeError: CUDA out of memory.** Tried to allocate 1.71 GiB (GPU 0; 31.72 GiB total capacity)",
     "RuntimeError: CUDA out of memory. Tried to allocate 1.71 GiB (GPU 0; 31.72 GiB total capacity)"),
    ("**ERROR [06/09 11:05:25 d2.engine.train_loop]**: Exception during training:", "Exception during training:"),
])
def test_bold_opening_a_line_goes_where_it_closes_before_the_end(line: str, cleaned: str) -> None:
    # a user bolds the part that matters of a pasted line (corpus crash/b18, a Detectron2 issue:
    # detectron2/engine/train_loop.py `logger.exception("Exception during training:")`, then the
    # traceback's exception line bolded): the exception line is read as one, its traceback closes
    assert clean(line) == cleaned
    banner = "*** JOB 1234 ON node01 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME LIMIT ***"
    assert clean(banner) == banner and clean("**bold** and **more**") == "bold and **more**"
    code = "`Trainer.fit` stopped: `max_epochs=3` reached."  # a tool's own backticks stay
    assert clean(code) == code


def test_a_bolded_exception_line_closes_its_traceback(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("Traceback (most recent call last):\n  File \"train_loop.py\", line 228, in run_step\n"
                   "    losses.backward()\n**RuntimeError: CUDA out of memory.** Tried to allocate 1.71 GiB\n"
                   "[06/09 11:05:25 d2.engine.hooks]: Total training time: 0:01:02 (0:00:00 on hooks)\n"
                   "Traceback (most recent call last):\n  File \"kaist.py\", line 418, in <module>\n")
    assert [event.failure for event in read_log(log).events if event.kind == "crashed"] == ["cuda_oom"]


# NVIDIA/nccl src/transport/net_ib.cc ncclIbAsyncThreadMain: every InfiniBand async event but
# connection setup is a WARN (`NET/IB : Got async event : %s` before 2.19, then `%s:%d Got
# non-fatal async event: %s(%d)`, `GID table changed`, or `async fatal event ...` for the fatal
# ones), the event named by libibverbs' ibv_event_type_str; NCCL goes on after the non-fatal ones.
@pytest.mark.parametrize(("event", "kind"), [
    ("Got async event : client reregistration", None),
    ("Got async event : port active", None),
    ("mlx5_0:1 Got non-fatal async event: SM change(13)", None),
    ("mlx5_0:1 GID table changed", None),
    ("Got async event : local catastrophic error", "nccl_error"),
    ("Got async event : CQ error", "nccl_error"),
    ("mlx5_0:1 async fatal event on QP (0x55d0): local access violation work queue error", "nccl_error"),
    ("Got completion from peer 10.0.0.2<52731> with error 12, opcode 0, len 0, vendor err 129", "nccl_error"),
])
def test_nccls_warning_of_a_non_fatal_infiniband_event_is_no_failure(tmp_path: Path, event: str, kind: str | None) -> None:
    line = f"gpu1:5021:5386 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : {event}"
    assert failure_kind(line) == kind
    log = tmp_path / "train.log"
    log.write_text("gpu1:5022:5377 [1] NCCL INFO comm 0x4438f540 rank 1 nranks 8 cudaDev 1 busId 52000 - Init COMPLETE"
                   f"\n\n{line}\n\n")
    crashes = [event.failure for event in read_log(log).events if event.kind == "crashed"]
    assert crashes == ([kind] if kind else [])


# SchedMD/slurm src/srun/srun.c: _terminate_job_step's `info("Terminating job step %u.%u", job_id,
# step_id)` after a task failed or the job was cancelled, and _task_finish's `error("%s: %s %s: %s%s",
# hosts, task_str, tasks, signal_str, core_str)` for tasks a signal ended (strsignal: `Terminated`).
@pytest.mark.parametrize("first", [
    "slurmstepd: error: *** STEP 32233190.0 ON nid01934 CANCELLED AT 2020-07-03T02:59:56 DUE TO TIME LIMIT ***",
    "srun: error: nid01934: tasks 2,4-5,7: Terminated",
    "srun: error: node925: task 0: Segmentation fault",
])
def test_sruns_job_step_after_a_failure_is_no_training_step(tmp_path: Path, first: str) -> None:
    # corpus crash/b18: `srun: Terminating job step 32233190.0` read as step 32233190 was a job
    # going on past its cancellation
    log = tmp_path / "slurm-32233190.out"
    log.write_text(f"step 7 loss 2.5\nsrun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n{first}\n"
                   "srun: Terminating job step 32233190.0\nsrun: error: nid01935: tasks 8-15: Terminated\n")
    snap = read_log(log)
    want = "segfault" if "Segmentation" in first else "cancelled"
    assert [event.failure for event in snap.events if event.kind == "crashed"] == [want]
    assert (snap.step, snap.status) == (7, "crashed")
    assert failure_kind("srun: error: nid01934: tasks 2,4-5,7: Terminated") == "cancelled"


# Ray's raylet (ray-project/ray src/ray/raylet/node_manager.cc): `Worker unexpectedly exits with a
# connection error code 2. End of file. There are some potential root causes. (1) The process is
# killed by SIGKILL by OOM killer ... (2) ray stop --force is called. (3) The worker is crashed
# unexpectedly due to SIGSEGV or other unexpected errors.`, as a terminal 149 columns wide showed it
# (corpus crash/b17: tmux hard-wrapped it mid-word, a short line padded with blanks to the width).
RAY_CAUSES = ("Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error"
              " code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by"
              " OOM killer due to high memory usage. (2) ray stop --force is called. (3) The worker is crashed"
              " unexpectedly due to SIGSEGV or other unexpected errors.")


def _hard_wrapped(text: str, width: int) -> str:
    pieces = [text[i:i + width] for i in range(0, len(text), width)]
    return "\n".join([*pieces[:-1], pieces[-1].ljust(width)])


@pytest.mark.parametrize("width", [80, 120, 149, 200])
def test_a_hedge_on_the_line_above_a_terminal_wrap_still_hedges(tmp_path: Path, width: int) -> None:
    wrapped = _hard_wrapped(RAY_CAUSES, width)
    assert unwrap_terminal(wrapped) == RAY_CAUSES
    log = tmp_path / "train.log"
    log.write_text(f"{wrapped}\n{_hard_wrapped(f'(raylet) A worker died. {RAY_CAUSES} [repeated 2x]', width)}\n")
    assert [event.failure for event in read_log(log).events if event.kind == "crashed"] in ([], [None])


def test_lines_of_one_shape_or_below_a_terminals_width_are_no_wrap() -> None:
    # NCCL's `Init COMPLETE` lines (NVIDIA/nccl src/init.cc), one length each, and a table's rows
    # start alike: records of one shape, not one line wrapped
    info = "gpu1:5022:5377 [1] NCCL INFO comm 0x4438f540 rank 1 nranks 8 cudaDev 1 busId 52000 - Init COMPLETE"
    table = "| " + "-" * 90 + " |"
    assert terminal_wrap(table, table, None) is None and terminal_wrap("x" * 79, "y" * 79, None) is None
    assert terminal_wrap(info, info.replace("5022:5377 [1]", "5024:5388 [3]"), None) is None
    assert terminal_wrap("x" * 100, "ab", 100) == ("", 100) and terminal_wrap("x" * 100, "ab", None) is None
    assert terminal_wrap("a" * 98 + "   ", "b" * 101, 101) is None  # a short line padded to the width
    assert terminal_wrap("a" * 100 + " ", "b" * 101, 101) == (" ", 101)  # wrapped at a space
    assert terminal_wrap("x" * 60, "yz", 60) == ("", 60) and terminal_wrap("x" * 60, "yz", 72) is None  # a known narrow width
    hedged = "If you are running out of memory, consider decreasing gpu_memory_utilization."
    assert failure_kind(unwrap_terminal(_hard_wrapped(hedged * 2, 80))) is None


def test_a_file_path_under_dev_shm_names_no_failure(tmp_path: Path) -> None:
    # weights staged in RAM: transformers src/transformers/configuration_utils.py logs
    # `logger.info(f"loading configuration file {resolved_config_file}")`, here under LLaMA-Factory's
    # `[INFO|%(asctime)s] %(filename)s:%(lineno)d >> ` prefix; NCCL's own failure on a full /dev/shm
    # (NVIDIA/nccl src/misc/shmutils.cc `WARN("Error: failed to extend %s to %ld bytes", ...)`) still is one
    log = tmp_path / "running_log.txt"
    log.write_text(
        "[INFO|2025-04-29 14:29:06] configuration_utils.py:691 >> loading configuration file /dev/shm/Qwen/Qwen3-14B/config.json\n"
        "[INFO|2025-04-29 14:31:39] trainer.py:2422 >>   Total optimization steps = 768\n"
        "[INFO|2025-04-29 16:11:20] trainer.py:2681 >> \n"
        "Training completed. Do not forget to share your model on huggingface.co/models =)\n")
    snap = read_log(log)
    assert (snap.status, snap.total_steps) == ("finished", 768)
    log.write_text("node1:1234:1290 [0] NCCL WARN Error: failed to extend /dev/shm/nccl-03v824 to 9637892 bytes\n")
    assert [event.kind for event in read_log(log).events] == ["crashed"]
