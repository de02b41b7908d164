"""Each training framework's own logging format, as its code writes it, read the way `train status
--log FILE` reads a log. Every case is built from the format string in the framework's source (the
comment names the file); the figures are the ones a careful engineer reads from the lines."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log

BAR = "\u2588"
# (id, log text, expected figures: step, total, loss, lr, epoch, grad_norm or a metric name)
CASES = [
    # transformers/trainer.py `Trainer.log`: `self.log(logs)` prints the dict (4.38+ adds grad_norm)
    ("hf-trainer-dict",
     "{'loss': 2.3456, 'grad_norm': 1.234, 'learning_rate': 4.5e-05, 'epoch': 0.35}\n",
     {"loss": 2.3456, "lr": 4.5e-05, "epoch": 0.35, "grad_norm": 1.234}),
    # transformers 4.4x: the same dict printed by `ProgressCallback.on_log` with values as strings
    ("hf-trainer-dict-str",
     "{'loss': '2.3456', 'grad_norm': '1.234', 'learning_rate': '4.5e-05', 'epoch': '0.35'}\n",
     {"loss": 2.3456, "lr": 4.5e-05, "epoch": 0.35, "grad_norm": 1.234}),
    # transformers' tqdm bar then its dicts
    ("hf-trainer-bar",
     f" 35%|{BAR * 3}       | 350/1000 [01:23<02:34,  4.20it/s]\n"
     "{'loss': 2.1, 'learning_rate': 4e-05, 'epoch': 1.05}\n",
     {"step": 350, "total": 1000, "loss": 2.1, "lr": 4e-05, "epoch": 1.05}),
    # lightning/pytorch/callbacks/progress/tqdm_progress.py: `Epoch {n}` bar with postfix metrics
    # (read at Lightning-AI/pytorch-lightning 7f0c343: `set_description(f"Epoch {trainer.current_epoch}")`,
    # 0-based, over one epoch's train batches; postfix `get_metrics`, `v_num` the logger's version)
    ("lightning-bar",
     f"Epoch 3:  45%|{BAR * 4}     | 100/220 [00:10<00:12,  9.80it/s, loss=0.25, v_num=0]\n",
     {"loss": 0.25, "epoch": 3 + 100 / 220}),
    # the same bar redirected to a file (no glyphs: tqdm's ascii fallback of spaces)
    ("lightning-bar-no-glyphs",
     "Epoch 3:  45%|          | 100/220 [00:10<00:12,  9.80it/s, v_num=0, train_loss=0.250]\n",
     {"loss": 0.25, "epoch": 3 + 100 / 220}),
    # deepspeed/runtime/engine.py `_report_progress`: `step={}, skipped={}, lr={}, mom={}`
    ("deepspeed-engine",
     "[2024-01-01 10:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] step=10, skipped=0, "
     "lr=[0.0001], mom=[(0.9, 0.999)]\n",
     {"step": 10, "lr": 0.0001}),
    # megatron/training/training.py `training_log`: `iteration {:8d}/{:8d} |` then `name: value |`
    ("megatron",
     " [2024-01-01 10:00:00] iteration      100/    1000 | consumed samples:        12800 | "
     "elapsed time per iteration (ms): 1234.5 | learning rate: 1.500000E-04 | global batch size:   128 "
     "| lm loss: 7.123456E+00 | loss scale: 1.0 | grad norm: 1.234 | number of skipped iterations:   0 "
     "| number of nan iterations:   0 |\n",
     {"step": 100, "total": 1000, "loss": 7.123456, "lr": 1.5e-4, "grad_norm": 1.234}),
    # NeMo (Megatron GPT model `self.log('reduced_train_loss', ...)`) through its MegatronProgressBar,
    # which prints no rate; the bar's n is steps done, the step the `global_step` it logs (0-based, one
    # behind), as the corpus writes NeMo's and Lightning's bars down (b30, b47)
    ("nemo",
     "Epoch 0: :  10%|# | 100/1000 [01:23<12:34, reduced_train_loss=2.340, global_step=99.00, "
     "consumed_samples=12800.0, train_step_timing in s=0.512]\n",
     {"step": 99, "total": 1000, "epoch": 0.1, "loss": 2.34, "train_step_timing_in_s": 0.512}),
    # torchtitan/train.py `logger.info(f"{color.red}step: {step:2}  ...")`
    ("torchtitan",
     "[titan] 2025-01-01 10:00:00,000 - root - INFO - \x1b[31mstep: 10  \x1b[32mloss:  7.1234  "
     "\x1b[33mgrad_norm:  1.2345  \x1b[38;2;180;60;0mmemory: 30.12GiB(31.70%)  \x1b[34mtps: 7,282  "
     "\x1b[36mtflops: 123.45  \x1b[35mmfu: 12.34%\x1b[39m\n",
     {"step": 10, "loss": 7.1234, "grad_norm": 1.2345, "tokens_per_s_per_device": 7282, "tokens_per_s": None}),
    # nanoGPT train.py: `iter {iter_num}: loss {lossf:.4f}, time {dt*1000:.2f}ms, mfu {..:.2f}%`
    ("nanogpt-iter",
     "step 100: train loss 4.2345, val loss 4.3456\n"
     "iter 100: loss 4.1234, time 123.45ms, mfu 12.34%\n",
     {"step": 100, "loss": 4.1234, "val_loss": 4.3456}),
    # fairseq/logging/progress_bar.py SimpleProgressBar (fairseq >= 0.10) behind fairseq_cli's format
    ("fairseq-inner",
     "2021-01-01 10:00:00 | INFO | train_inner | epoch 001:    100 / 1000 loss=9.2, nll_loss=9.0, "
     "ppl=512, wps=12345, ups=3.2, wpb=4096, bsz=128, num_updates=100, lr=0.0001, gnorm=1.2, clip=0, "
     "train_wall=30, wall=40\n",
     {"step": 100, "loss": 9.2, "lr": 0.0001, "grad_norm": 1.2}),
    # fairseq < 0.10 `| epoch 011 | ...` end-of-epoch and `valid on 'valid' subset` summaries
    ("fairseq-legacy",
     "| epoch 011 | loss 3.456 | nll_loss 1.234 | ppl 2.35 | wps 12345 | ups 3 | wpb 4096 | bsz 128 "
     "| num_updates 500 | lr 0.0005 | gnorm 0.5 | clip 0 | oom 0 | wall 1234 | train_wall 1200\n"
     "| epoch 011 | valid on 'valid' subset | loss 3.9 | nll_loss 2.1 | ppl 4.3 | num_updates 500\n",
     {"step": 500, "loss": 3.456, "lr": 0.0005, "val_loss": 3.9}),
    # espnet2/train/reporter.py `log_message`: `{epoch}epoch:train:{start}-{end}batch: k=v, ...`
    ("espnet",
     "5epoch:train:3376-3750batch: iter_time=0.001, forward_time=0.1, loss=1.733, "
     "backward_time=0.1, optim_step_time=0.01, optim0_lr0=0.100, train_time=0.3\n",
     {"loss": 1.733, "lr": 0.1, "epoch": 5}),
    # torchvision references/classification/utils.py MetricLogger.log_every
    ("metriclogger",
     "Epoch: [0]  [ 210/1251]  eta: 0:10:04  lr: 0.000100  loss: 6.9012 (6.9234)  "
     "time: 0.4821  data: 0.0012  max mem: 12345\n",
     {"step": 210, "total": 1251, "loss": 6.9012, "lr": 0.0001}),
    # DUSt3R/MapAnything's MetricLogger adds the fractional epoch as a meter: it beats the header's [7]
    ("metriclogger-epoch-meter",
     "Epoch: [7]  [ 600/2916]  eta: 0:54:53  lr: 0.000072  epoch: 7.2023 (7.1029)  loss: 0.5 (0.6)  "
     "time: 1.3483  data: 0.0002  max mem: 137223\n",
     {"step": 600, "total": 2916, "epoch": 7.2023, "lr": 0.000072}),
    # darknet src/detector.c train_detector: `%ld: %f, %f avg loss, %f rate, %lf seconds, %d images`
    ("darknet",
     "Loaded: 0.000041 seconds\n 1000: 1.432114, 1.512345 avg loss, 0.001000 rate, 3.200000 seconds, "
     "64000 images, 20.5 hours left\n",
     {"step": 1000, "loss": 1.512345, "lr": 0.001, "batch_loss": 1.432114}),
    ("darknet-2017",
     "9002: 0.211667, 0.060730 avg, 0.001000 rate, 3.868000 seconds, 576288 images\n",
     {"step": 9002, "loss": 0.06073, "lr": 0.001}),
    # Unsloth's gradient accumulation fix (unsloth issue 1169) prints the 0-based step and loss after the bar
    ("unsloth-ga-fix",
     f"  2%|{BAR}         | 11/600 [01:46<1:29:14,  9.09s/it]10, 4.4966\n"
     f"  2%|{BAR}         | 12/600 [01:54<1:28:28,  9.03s/it]11, 4.3969\n",
     {"step": 12, "total": 600, "loss": 4.3969}),
    ("bar-then-other-pair",
     f"  2%|{BAR}         | 12/600 [01:54<1:28:28,  9.03s/it]3, 0.5\n",
     {"step": 12, "loss": None}),
    # PaddleClas ppcls/engine/train/utils.py log_info: the scheduler's class after `lr`
    ("paddleclas",
     "[2024/07/31 20:24:32] ppcls INFO: [Train][Epoch 24/120][Iter: 10/304]lr(PiecewiseDecay): "
     "0.00100000, top1: 0.97159, CELoss: 0.05098, loss: 0.05098, batch_cost: 0.62808s, "
     "reader_cost: 0.12837, ips: 25.47451 samples/s, eta: 5:08:34\n",
     {"step": 10, "total": 304, "epoch": 24, "loss": 0.05098, "lr": 0.001}),
    # mmengine/runner/log_processor.py `get_log_after_iter`, epoch-based and iteration-based
    ("mmengine-epoch",
     "2024/01/01 10:00:00 - mmengine - INFO - Epoch(train)  [1][ 50/469]  base_lr: 1.0000e-02 "
     "lr: 1.0000e-02  eta: 0:20:28  time: 0.2168  data_time: 0.0054  memory: 1234  loss: 2.3066  "
     "loss_cls: 2.3066\n",
     {"step": 50, "total": 469, "loss": 2.3066, "lr": 0.01}),
    ("mmengine-iter",
     "2024/01/01 10:00:00 - mmengine - INFO - Iter(train) [  50/20000]  base_lr: 1.0000e-02 "
     "lr: 1.0000e-02  eta: 2:00:00  time: 0.2000  data_time: 0.0100  memory: 3000  loss: 1.2345  "
     "decode.loss_ce: 1.0000\n",
     {"step": 50, "total": 20000, "loss": 1.2345, "lr": 0.01}),
    # detectron2/utils/events.py CommonMetricPrinter.write
    ("detectron2",
     "[12/01 10:00:00 d2.utils.events]:  eta: 0:20:00  iter: 19  total_loss: 2.345  loss_cls: 1.2  "
     "loss_box_reg: 0.5  time: 0.4000  last_time: 0.3900  data_time: 0.0100  last_data_time: 0.0100  "
     "lr: 0.00039962  max_mem: 2345M\n",
     {"step": 19, "loss": 2.345, "lr": 0.00039962}),
    # ultralytics/models/yolo/detect/train.py `progress_string` header and the bar's description
    ("ultralytics",
     "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size\n"
     f"      1/100      2.5G      1.234      2.345      1.123         45        640: 100%|{BAR * 10}| "
     "469/469 [01:23<00:00,  5.6it/s]\n",
     {"box_loss": 1.234, "cls_loss": 2.345}),
    # keras/src/utils/progbar.py (Keras 2): `Epoch 3/10` then `123/500 [==>...] - ETA: 1s - loss: ..`
    ("keras2",
     "Epoch 3/10\n123/500 [=====>........................] - ETA: 1s - loss: 0.2500 - accuracy: 0.9200\n",
     {"loss": 0.25, "accuracy": 0.92, "epoch": 2.246}),
    # Keras 3 progbar: `━` bar, then `3s 5ms/step - accuracy: .. - loss: ..`
    ("keras3",
     "Epoch 3/10\n\u001b[1m500/500\u001b[0m \u001b[32m\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501"
     "\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u001b[0m\u001b[37m\u001b[0m "
     "\u001b[1m3s\u001b[0m 5ms/step - accuracy: 0.9200 - loss: 0.2500 - val_accuracy: 0.9000 - "
     "val_loss: 0.3000\n",
     {"loss": 0.25, "val_loss": 0.3, "epoch": 3.0}),
    # MaxText/metric_logger.py `write_metrics_to_stdout`
    ("maxtext",
     "completed step: 100, seconds: 1.234, TFLOP/s/device: 123.4, Tokens/s/device: 5678.9, "
     "total_weights: 65536, loss: 7.123\n",
     {"step": 100, "loss": 7.123, "tokens_per_s_per_device": 5678.9, "tflops_per_device": 123.4}),
    # torchtune's recipes log `tokens_per_second_per_gpu` (recipes/full_finetune_distributed.py
    # `log_dict`); DiskLogger writes `Step {step} | ` then `{name}:{data} ` (training/metric_logging.py)
    ("torchtune-disklogger",
     "Step 38 | loss:1.2345 lr:2e-05 tokens_per_second_per_gpu:1234.5 peak_memory_alloc:20.1 \n",
     {"step": 38, "loss": 1.2345, "lr": 2e-05, "tokens_per_s_per_device": 1234.5}),
    # litgpt/finetune/lora.py `fit`: `Epoch {} | iter {} step {} | loss train: {}, val: {} | ...`
    ("litgpt",
     "Epoch 1 | iter 76 step 38 | loss train: 1.234, val: n/a | iter time: 123.45 ms (step) "
     "remaining time: 0:12:34\n",
     {"step": 38, "loss": 1.234}),
    # torchtune/recipes/full_finetune_single_device.py `pbar.set_description(f"{epoch+1}|{idx+1}|Loss: ..")`
    ("torchtune",
     f"1|38|Loss: 1.2345: 100%|{BAR * 10}| 38/38 [01:23<00:00,  2.20s/it]\n",
     {"step": 38, "loss": 1.2345}),
    # DLLogger StdOutBackend: `DLL {timestamp} - {step} {key} : {value} ...`
    ("dllogger",
     "DLL 2022-04-05 05:10:36.324733 - Epoch: 0 Iteration: 100  train.loss : 2.3450  "
     "train.lr : 0.0010\n",
     {"step": 100, "loss": 2.345, "lr": 0.001}),
    # nanotron/logging.py LogItem lines joined with ` | ` (real log: find_string, zagreus_350M README)
    ("nanotron",
     "12/21 01:39:51 [INFO|DP=0|TP=0|lrdn0007]: iteration: 211364 / 1500000 | consumed_tokens: 480B | "
     "time_per_iteration_ms: 8.79K | tokens_per_sec: 182K | tokens_per_sec_per_gpu: 699 | "
     "global_batch_size: 1.6M | grad_norm: 0.112 | lm_loss: 2.04 | lr: 0.0001 | "
     "model_tflops_per_gpu: 15.4 | eta: 131 days, 1:45:39\n",
     {"step": 211364, "total": 1500000, "loss": 2.04, "lr": 0.0001, "grad_norm": 0.112,
      "tokens_per_s": 182000, "tokens_per_s_per_device": 699, "tflops_per_device": 15.4}),
    # composer/loggers/console_logger.py `_log_to_console`: `[batch=N/M]:` then one `\t Train k: v` a line
    ("composer",
     "[epoch=1][batch=5/100]:\n\t Train time/batch: 4\n\t Train time/sample: 4096\n"
     "\t Train loss/train/total: 7.1234\n\t Train metrics/train/LanguageCrossEntropy: 7.1234\n"
     "\t Train lr-DecoupledAdamW/group0: 0.0006\n",
     {"step": 5, "total": 100, "loss": 7.1234, "lr": 0.0006}),
    # OLMo/olmo/train.py `log_metrics_to_console`: `[step=N/M]` then `    name=value` lines
    ("olmo",
     "2024-01-01 10:00:00.000 node0:0 olmo.train:1000 INFO [step=100/739328]\n"
     "    train/CrossEntropyLoss=7.123\n    train/Perplexity=1239.2\n"
     "    optim/total_grad_norm=1.234\n    optim/learning_rate_group0=0.0004\n",
     {"step": 100, "total": 739328, "loss": 7.123, "grad_norm": 1.234, "lr": 0.0004}),
    # timm/train.py `train_one_epoch`: `Train: {epoch} [{idx}/{len} ({pct}%)]  Loss: {val} ({avg})`
    # (its epoch counted from 0: `for epoch in range(start_epoch, num_epochs)`, never a `train` figure)
    ("timm",
     "Train: 3 [ 100/1251 (  8%)]  Loss: 6.912 (6.93)  Time: 0.412s,  621.37/s  (0.420s,  609.52/s)  "
     "LR: 1.000e-04  Data: 0.010 (0.012)\n",
     {"step": 100, "total": 1251, "loss": 6.912, "lr": 1e-4, "epoch": 3 + 100 / 1251, "train": None}),
    # TRL's DPOTrainer through Trainer.log
    ("trl-dpo",
     "{'loss': 0.6931, 'grad_norm': 2.1, 'learning_rate': 5e-07, 'rewards/chosen': 0.01, "
     "'rewards/rejected': -0.02, 'rewards/accuracies': 0.5, 'rewards/margins': 0.03, 'epoch': 0.1}\n",
     {"loss": 0.6931, "lr": 5e-07, "grad_norm": 2.1, "epoch": 0.1}),
    # LLaMA-Factory's `[INFO|callbacks.py:...]` prefix over Trainer.log output
    ("llamafactory",
     "[INFO|2024-06-01 10:00:00] llamafactory.train.callbacks:157 >> {'loss': 1.2, 'grad_norm': 0.8, "
     "'learning_rate': 1e-05, 'epoch': 0.5, 'throughput': 1234.5}\n",
     {"loss": 1.2, "lr": 1e-05, "epoch": 0.5}),
    # NVIDIA/NeMo nemo/lightning/pytorch/callbacks/progress_printer.py `on_train_batch_end`:
    # `f" epoch {trainer.current_epoch}, iteration {n}/{self.total}"` then ` | {metric}: {val}`
    ("nemo2-progress-printer",
     "Training epoch 0, iteration 50/100 | lr: 1.499e-05 | global_batch_size: 32 | global_step: 49 | "
     "reduced_train_loss: 11.03 | train_step_timing in s: 0.6213 | consumed_samples: 1600\n"
     "Validation: iteration 5/10\n",
     {"step": 50, "total": 100, "epoch": 0.0, "loss": 11.03, "lr": 1.499e-05, "global_batch_size": 32}),
    # the same printer with NeMo's FLOPsMeasurementCallback (nemo/lightning/pytorch/callbacks/
    # flops_callback.py logs `TFLOPS_per_GPU`): a rate per accelerator
    ("nemo2-flops-callback",
     "Training epoch 0, iteration 9/29 | lr: 5.988e-06 | global_batch_size: 512 | global_step: 9 | "
     "reduced_train_loss: 10.1 | train_step_timing in s: 27.88 | consumed_samples: 5120 | TFLOPS_per_GPU: 85.8\n",
     {"step": 9, "loss": 10.1, "tflops_per_device": 85.8}),
    # NVIDIA/dllogger dllogger/logger.py `default_step_format` is `str(step)`: DeepLearningExamples'
    # `dllogger.log(step=(epoch, global_step), data=...)` prints the tuple; a third member counts
    # the validation's iterations, so that line moves no step
    ("dllogger-tuple",
     "DLL 2024-01-01 10:00:00.000000 - (0, 100) train.loss : 2.3456  train.ips : 1234.5 images/s lr : 0.001\n"
     "DLL 2024-01-01 10:00:01.000000 - (0, 100, 5) val.loss : 2.5 \n",
     {"step": 100, "epoch": 0.0, "loss": 2.3456, "lr": 0.001, "val_loss": 2.5}),
    # MiniLLM (microsoft/LMOps minillm/finetune.py `get_log`): `Iter` counts micro-batches of
    # `total_iters * gradient_accumulation_steps`, `global iter` the optimizer steps: the run's position
    ("minillm-global-iter",
     "train | epoch   0 | Iter:    400/ 20000 | global iter:    100/  5000 | loss: 2.3456 | ds_loss: 0.0000 | "
     "lr: 1.0000e-05 | scale:  1024.0000 | micro time: 0.510 | step time: 0.512\n",
     {"step": 100, "total": 5000, "loss": 2.3456, "lr": 1e-05}),
    # the same tuple in dllogger's JSONStreamBackend (`DLLL {...}`, `json.dumps` writes it as a list)
    ("dllogger-json-tuple",
     'DLLL {"timestamp": "1700000000.0", "datetime": "2023-11-14 22:13:20.000000", "elapsedtime": 1.0, '
     '"type": "LOG", "step": [1, 200], "data": {"train.loss": 2.3456, "lr": 0.001}}\n',
     {"step": 200, "epoch": 1.0, "loss": 2.3456, "lr": 0.001}),
    # verl/utils/tracking.py console logger: `step:N - key:value - key:value`
    ("verl",
     "(TaskRunner pid=1) step:34 - actor/pg_loss:0.01 - actor/lr:1e-06 - actor/grad_norm:0.5 - "
     "critic/score/mean:0.5\n",
     {"step": 34, "lr": 1e-06, "grad_norm": 0.5}),
    # OpenRLHF trainer/sft_trainer.py `step_bar.set_postfix(logs_dict)`
    ("openrlhf",
     f"Train step of epoch 0:  10%|{BAR}         | 10/100 [00:30<04:30,  3.00s/it, gpt_loss=1.23, "
     "loss_mean=1.2, lr=1e-05]\n",
     {"step": 10, "total": 100, "lr": 1e-05}),
    # axolotl through Trainer.log, rank-prefixed by accelerate
    ("axolotl",
     "[rank0]:{'loss': 1.05, 'grad_norm': 0.4, 'learning_rate': 2e-05, 'epoch': 0.25}\n",
     {"loss": 1.05, "lr": 2e-05, "epoch": 0.25}),
    # SpecForge `step N: {...}` dicts
    ("specforge",
     "step 120: {'loss': 3.2, 'acc_0': 0.7, 'lr': 1e-4}\n",
     {"step": 120, "loss": 3.2, "lr": 1e-4}),
    # transformers < 4.0 `Trainer._log`: `logger.info(output)` of json.dumps({**logs, "step": ...})
    ("hf-trainer-v3-json",
     '{"loss": 2.3456, "learning_rate": 4.5e-05, "epoch": 0.35, "step": 500}\n',
     {"step": 500, "loss": 2.3456, "lr": 4.5e-05, "epoch": 0.35}),
    # transformers `_inner_training_loop` banner, then the dicts
    ("hf-trainer-banner",
     "***** Running training *****\n  Num examples = 9,000\n  Num Epochs = 3\n"
     "  Total optimization steps = 564\n{'loss': 2.1, 'learning_rate': 4e-05, 'epoch': 0.27}\n",
     {"total": 564, "loss": 2.1, "epoch": 0.27}),
    # unsloth's banner (`Total steps = `) before Trainer.log dicts
    ("unsloth",
     "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs used = 1\n"
     "   \\\\   /|    Num examples = 1,000 | Num Epochs = 3 | Total steps = 375\n"
     "O^O/ \\_/ \\    Batch size per device = 2 | Gradient accumulation steps = 4\n"
     "{'loss': 1.8, 'grad_norm': 0.9, 'learning_rate': 0.0002, 'epoch': 0.01}\n",
     {"total": 375, "loss": 1.8, "lr": 0.0002, "grad_norm": 0.9}),
    # Megatron-Core training.py (2024+): throughput and `num zeros` columns
    ("megatron-core",
     " [2024-06-01 10:00:00] iteration       10/    1000 | consumed samples:         1280 | "
     "elapsed time per iteration (ms): 5000.0 | throughput per GPU (TFLOP/s/GPU): 150.0 | "
     "learning rate: 3.000000E-05 | global batch size:   128 | lm loss: 1.000000E+01 | "
     "loss scale: 1.0 | grad norm: 5.000 | num zeros: 0.0 | number of skipped iterations:   0 | "
     "number of nan iterations:   0 |\n",
     {"step": 10, "total": 1000, "loss": 10.0, "lr": 3e-05, "grad_norm": 5.0}),
    # Megatron-LM 2020: names printed without a colon
    ("megatron-2020",
     " iteration      199/  317892 | elapsed time per iteration (ms): 812.3 | learning rate "
     "1.258E-04 | lm loss 4.799004E+00 | loss scale 65536.0 |\n",
     {"step": 199, "total": 317892, "loss": 4.799004, "lr": 1.258e-4}),
    # fairseq `--log-format json`
    ("fairseq-json",
     '2021-01-01 10:00:00 | INFO | train_inner | {"epoch": 1, "update": 0.012, "loss": "13.911", '
     '"ppl": "15408.8", "wps": "4880.7", "ups": "1.49", "num_updates": "100", "lr": "1.25e-05", '
     '"gnorm": "3.4", "train_wall": "67", "wall": "68"}\n',
     {"step": 100, "loss": 13.911, "lr": 1.25e-05, "grad_norm": 3.4}),
    # torchtitan 2024 (before grad_norm; `wps` for tokens/s)
    ("torchtitan-2024",
     "[rank0]:2024-05-01 10:00:00,000 - root - INFO - step:  1  loss: 12.2500  memory:  9.46GiB(9.96%)  "
     "wps: 1,264  mfu: 0.78%\n",
     {"step": 1, "loss": 12.25, "mfu": 0.0078}),
    # karpathy/build-nanogpt train_gpt2.py
    ("build-nanogpt",
     "step    10 | loss: 9.123456 | lr 6.0000e-04 | norm: 1.2345 | dt: 123.45ms | tok/sec: 12345.67\n",
     {"step": 10, "loss": 9.123456, "lr": 6e-04, "grad_norm": 1.2345}),
    # mmcv < 2 TextLoggerHook (MMDetection 2.x): `Epoch [1][50/7330]\tlr: ..., eta: ..., ...`
    ("mmcv-text-logger",
     "2021-01-01 10:00:00,000 - mmdet - INFO - Epoch [1][50/7330]\tlr: 1.988e-03, eta: 1 day, 0:37:55, "
     "time: 0.549, data_time: 0.050, memory: 3709, loss_rpn_cls: 0.5, loss_bbox: 0.1, loss: 1.2345, "
     "grad_norm: 3.4\n",
     {"step": 50, "total": 7330, "loss": 1.2345, "lr": 1.988e-03, "grad_norm": 3.4}),
    # Keras fit(verbose=2): one line an epoch
    ("keras-verbose2",
     "Epoch 3/10\n19/19 - 12s - loss: 0.2500 - accuracy: 0.9200 - val_loss: 0.3000 - "
     "val_accuracy: 0.9000 - 12s/epoch - 632ms/step\n",
     {"loss": 0.25, "val_loss": 0.3, "epoch": 3.0}),
    # litgpt/pretrain.py `fit` with a validation figure
    ("litgpt-pretrain",
     "Epoch 1 | iter 100 step 25 | loss train: 7.123, val: 7.456 | iter time: 456.78 ms (step) "
     "remaining time: 1:23:45\n",
     {"step": 25, "loss": 7.123}),
    # timm/validate.py: `Test: [{}/{}]  Time: ..  Loss: ..  Acc@1: ..  Acc@5: ..`
    ("timm-validate",
     "Train: 0 [ 100/1251 (  8%)]  Loss: 6.912 (6.93)  Time: 0.412s,  621.37/s  (0.420s,  609.52/s)  "
     "LR: 1.000e-04  Data: 0.010 (0.012)\n"
     "Test: [  10/196]  Time: 0.500 (0.500)  Loss:  0.8000 (0.8000)  Acc@1: 80.0000 (80.0000)  "
     "Acc@5: 95.0000 (95.0000)\n",
     {"step": 100, "loss": 6.912, "val_loss": 0.8}),
    # deepspeed/utils/timer.py ThroughputTimer
    ("deepspeed-throughput-timer",
     "[2024-01-01 10:00:00,123] [INFO] [timer.py:260:stop] epoch=0/micro_step=10/global_step=10, "
     "RunningAvgSamplesPerSec=12.3, CurrSamplesPerSec=12.5, MemAllocated=4.5GB, MaxMemAllocated=6.7GB\n",
     {"step": 10}),
    # OLMo-core console: `[step=N/M,epoch=E]` then indented `name=value` lines
    ("olmo-core",
     "[step=100/10000,epoch=1]\n    train/CE loss=7.123\n    optim/LR (group 0)=0.0004\n"
     "    optim/total grad norm=1.234\n",
     {"step": 100, "total": 10000, "loss": 7.123, "grad_norm": 1.234}),
    # lightning/pytorch/callbacks/progress/rich_progress.py: `Epoch 3/9 ━━━━ 100/220 0:00:10 • ...`
    ("lightning-rich",
     "Epoch 3/9  \u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2578\u2501\u2501\u2501 100/220 "
     "0:00:10 \u2022 0:00:12 9.80it/s v_num: 0 train_loss: 0.250\n",
     {"step": 100, "total": 220, "loss": 0.25}),
    # pytorch/ignite examples/mnist/mnist.py: `"Epoch[{}] Iteration[{}/{}] Loss: {:.2f}"`
    ("ignite",
     "Epoch[1] Iteration[100/469] Loss: 0.32\n",
     {"step": 100, "total": 469, "loss": 0.32}),
    # DeepSpeed-Chat step1_supervised_finetuning/main.py: `f"Epoch {epoch+1}/{n} with loss {..}"`
    ("deepspeed-chat",
     "Epoch 1/1 with loss 2.345\n",
     {"loss": 2.345}),
    # YOLOX yolox/core/trainer.py through loguru (`{time} | {level} | {name}:{line} - `)
    ("yolox-loguru",
     "2024-01-01 10:00:00 | INFO     | yolox.core.trainer:260 - epoch: 1/300, iter: 10/469, "
     "mem: 3000Mb, iter_time: 0.5s, data_time: 0.01s, total_loss: 12.3, iou_loss: 3.2, l1_loss: 0.0, "
     "conf_loss: 5.6, cls_loss: 3.4, lr: 1.0e-05, size: 640, ETA: 1 day, 2:03:04\n",
     {"step": 10, "total": 469, "loss": 12.3, "lr": 1e-05}),
    # ms-swift's Trainer.log dict (README output): `'global_step/max_steps': '1/94'`
    ("ms-swift",
     "{'loss': 1.47077751, 'grad_norm': 10.5625, 'learning_rate': 2e-06, 'token_acc': 0.65511727, "
     "'epoch': 0.01, 'global_step/max_steps': '1/94', 'percentage': '1.06%', 'elapsed_time': '2s', "
     "'remaining_time': '4m 28s', 'memory(GiB)': 4.87, 'train_speed(iter/s)': 0.345807}\n",
     {"step": 1, "total": 94, "loss": 1.47077751, "lr": 2e-06, "grad_norm": 10.5625}),
    # PaddleNLP trainer: `global step {}/{}, epoch: {}, batch: {}, ... loss: {}, lr: {}`
    ("paddlenlp",
     "global step 100/1000, epoch: 0, batch: 99, rank_id: 0, loss: 2.3, lr: 0.0001, "
     "speed: 3.2 step/s\n",
     {"step": 100, "total": 1000, "loss": 2.3, "lr": 0.0001}),
    # mlx-lm tuner/trainer.py: `Iter {}: Train loss {:.3f}, Learning Rate {:.3e}, It/sec ...`
    ("mlx-lm",
     "Iter 10: Train loss 2.345, Learning Rate 1.000e-05, It/sec 0.5, Tokens/sec 123.4, "
     "Trained Tokens 1234, Peak mem 12.3 GB\n",
     {"step": 10, "loss": 2.345, "lr": 1e-05}),
    # diffusers examples (accelerate): `progress_bar.set_postfix(step_loss=.., lr=..)` on `Steps`
    ("diffusers",
     f"Steps:  10%|{BAR}         | 100/1000 [01:00<09:00,  1.67it/s, lr=0.0001, step_loss=0.123]\n",
     {"step": 100, "total": 1000, "loss": 0.123, "lr": 0.0001}),
    # TRL GRPOTrainer through Trainer.log
    ("trl-grpo",
     "{'loss': 0.0123, 'grad_norm': 0.5, 'learning_rate': 1e-06, 'num_tokens': 12345.0, "
     "'completions/mean_length': 123.4, 'rewards/accuracy_reward/mean': 0.5, 'reward': 0.5, "
     "'kl': 0.001, 'epoch': 0.01}\n",
     {"loss": 0.0123, "lr": 1e-06, "grad_norm": 0.5, "epoch": 0.01}),
    # stable-baselines3 common/logger.py HumanOutputFormat table
    ("sb3",
     "-----------------------------\n| time/              |      |\n|    fps             | 1234 |\n"
     "|    total_timesteps | 2048 |\n| train/             |      |\n|    loss            | 0.12 |\n"
     "|    learning_rate   | 0.0003 |\n-----------------------------\n",
     {"loss": 0.12, "lr": 0.0003}),
    # transformers' NotebookProgressCallback, pasted as text: the progress line, then its table
    ("hf-notebook-table",
     "[60/60 01:23, Epoch 0/1]\nStep\tTraining Loss\n1\t1.234500\n2\t1.100000\n60\t0.800000\n",
     {"step": 60, "loss": 0.8}),
    # the same table pasted into an issue as Markdown
    ("hf-notebook-markdown",
     "| Step | Training Loss | Validation Loss |\n|------|---------------|-----------------|\n"
     "| 500 | 2.345600 | 2.123400 |\n| 1000 | 2.100000 | 2.000000 |\n",
     {"step": 1000, "loss": 2.1, "val_loss": 2.0}),
    # accelerate examples/nlp_example.py: `accelerator.print(f"epoch {epoch}:", eval_metric)`
    ("accelerate-example",
     "epoch 0: {'accuracy': 0.85, 'f1': 0.8}\nepoch 1: {'accuracy': 0.87, 'f1': 0.82}\n",
     {"epoch": 1, "val_accuracy": 0.87}),  # metric.compute() after each epoch: an evaluation
    # detectron2/engine/hooks.py IterationTimer.after_train: `Total training time: {} ({} on hooks)`
    ("detectron2-end",
     "[12/01 10:00:00 d2.utils.events]:  eta: 0:00:00  iter: 299  total_loss: 0.345  time: 0.4000  "
     "lr: 0.00025  max_mem: 2345M\n[12/01 10:00:05 d2.engine.hooks]: Overall training speed: 298 "
     "iterations in 0:02:00 (0.4027 s / it)\n[12/01 10:00:05 d2.engine.hooks]: Total training time: "
     "0:02:10 (0:00:10 on hooks)\n",
     {"step": 299, "loss": 0.345, "status": "finished"}),
    # litgpt/finetune/lora.py: `fabric.print(f"Training time: {...:.2f}s")` after the last iteration
    ("litgpt-end",
     "Epoch 1 | iter 100 step 25 | loss train: 1.234, val: n/a | iter time: 98.76 ms (step) "
     "remaining time: 0:00:00\nTraining time: 123.45s\nMemory used: 12.30 GB\n",
     {"step": 25, "loss": 1.234, "status": "finished"}),
    # espnet2/train/trainer.py: `The training was finished at {max_epoch} epochs `
    ("espnet-end",
     "[host] 2020-11-11 16:36:33,446 (trainer:328) INFO: 35epoch results: [train] loss=1.2, lr=0.001 "
     "[valid] loss=1.5\n[host] 2020-11-11 16:36:34,446 (trainer:382) INFO: The training was finished "
     "at 35 epochs \n",
     {"epoch": 35, "loss": 1.2, "val_loss": 1.5, "status": "finished"}),
    # OLMo's last console record: the position alone on its line, the figures under it
    ("olmo-last-step",
     "[step=1000/1000]\n    train/CrossEntropyLoss=2.1\n",
     {"step": 1000, "total": 1000, "loss": 2.1, "status": "finished"}),
    # the notebook table pasted with its tabs turned into single spaces
    ("hf-notebook-spaces",
     "Step Training Loss Validation Loss\n500 2.345600 2.123400\n1000 2.100000 2.000000\n",
     {"step": 1000, "loss": 2.1, "val_loss": 2.0}),
    # lightning/pytorch/callbacks/lr_monitor.py names the rate `lr-{optimizer class}` in the bar
    ("lightning-lr-monitor",
     "Epoch 0:  50%|#####     | 100/200 [00:10<00:10,  9.80it/s, v_num=0, lr-AdamW=0.001, "
     "train_loss=2.340]\n",
     {"step": 100, "lr": 0.001, "loss": 2.34}),
    # transformers/utils/notebook.py NotebookProgressBar with its remaining time and rate, after
    # Unsloth's banner (its `Gradient Accumulation steps = 4` and `Num Epochs = 5` are settings)
    ("hf-notebook-bar-unsloth",
     "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs = 1\n"
     "   \\\\   /|    Num examples = 467 | Num Epochs = 5\n"
     "O^O/ \\_/ \\    Batch size per device = 2 | Gradient Accumulation steps = 4\n"
     "\\        /    Total batch size = 8 | Total steps = 290\n\n"
     "[ 22/290 02:50 < 38:04, 0.12 it/s, Epoch 0.36/5]\n",
     {"step": 22, "total": 290, "epoch": 0.36, "accumulation_steps": 4, "num_epochs": 5}),
    # HF's own `***** Running training *****` block: the settings are not the position
    ("hf-running-training-block",
     "***** Running training *****\n  Num examples = 1000\n  Num Epochs = 3\n"
     "  Instantaneous batch size per device = 8\n  Gradient Accumulation steps = 2\n"
     "  Total optimization steps = 189\n",
     {"step": None, "epoch": None, "total": 189}),
    # lightning/pytorch/callbacks/progress/tqdm_progress.py `_format_num` pads a nan to `nan.0`
    ("lightning-padded-nan",
     f"Epoch 0:   3%|{BAR}| 9000/301500 [1:42:42<55:37:46, v_num=0-56, reduced_train_loss=nan.0, "
     "global_step=9e+3, train_step_timing in s=0.615, val_loss=7.040]\n",
     {"step": 9000, "loss": math.nan, "val_loss": 7.04}),
    # nanoGPT forks printing perplexity beside the loss, evaluations interleaved
    ("nanogpt-ppl",
     "step 0: train loss 4.2850, val loss 4.2848, train ppl 72.5993, val ppl 72.5846\n"
     "iter 10: loss 3.1680, ppl 23.7589, time 444.91ms, mfu 0.42%\n",
     {"step": 10, "loss": 3.168, "perplexity": 23.7589, "val_ppl": 72.5846, "val_loss": 4.2848}),
    # keras/src/callbacks/early_stopping.py: `Epoch {n}: early stopping`, then the restore message
    ("keras-early-stopping",
     "Epoch 7/50\n1/1 \u2501\u2501\u2501\u2501 0s 144ms/step - loss: 38.8818\nEpoch 8/50\n"
     "1/1 \u2501\u2501\u2501\u2501 0s 167ms/step - loss: 48.5781\nEpoch 8: early stopping\n"
     "Restoring model weights from the end of the best epoch: 6.\n",
     {"epoch": 8.0, "loss": 48.5781, "status": "finished"}),
    # Keras' last epoch with its bar complete: model.fit has returned
    ("keras-last-epoch",
     "Epoch 2/2\n10/10 [==============================] - 1s 5ms/step - loss: 0.3 - val_loss: 0.2\n",
     {"epoch": 2.0, "loss": 0.3, "status": "finished"}),
    # fastai's Recorder table (fastai/callback/progress.py): `epoch` is a column, not a figure
    ("fastai-table",
     "epoch     train_loss  valid_loss  accuracy  time    \n"
     "0         0.543210    0.345678    0.876543  00:12     \n"
     "1         0.321098    0.234567    0.912345  00:11     \n",
     {"epoch": 1.0, "loss": 0.321098, "val_loss": 0.234567, "accuracy": 0.912345}),
    # fastai 0.7's fit table (fastai/model.py `names = ["epoch", "trn_loss", "val_loss"] + ...`)
    ("fastai-v07-trn-loss",
     "epoch      trn_loss   val_loss                                \n"
     "    0      4.294783   4.28535   \n    6      3.971787   3.998788  \n",
     {"epoch": 6.0, "loss": 3.971787, "val_loss": 3.998788}),
    # the same table pasted with single spaces: snake_case words are names of their own
    ("fastai-table-spaces",
     "epoch train_loss valid_loss accuracy time\n0 0.543210 0.345678 0.876543 00:12\n"
     "1 0.321098 0.234567 0.912345 00:11\n",
     {"epoch": 1.0, "loss": 0.321098, "val_loss": 0.234567}),
    # a single-spaced header led by another position name
    ("spaced-header-iteration",
     "Global Step Training Loss Validation Loss\n500 2.345600 2.123400\n1000 2.100000 2.000000\n",
     {"step": 1000, "loss": 2.1, "val_loss": 2.0}),
    # the notebook bar at its total over the table it logged: the rows are history, not a restart
    ("hf-notebook-finished-table",
     "[60/60 01:23, Epoch 1/1]\nStep\tTraining Loss\n20\t1.234500\n40\t1.100000\n60\t0.800000\n",
     {"step": 60, "total": 60, "loss": 0.8, "epoch": 1.0, "status": "finished"}),
    # pytorch/examples mnist/main.py: the epoch's sample count starts again at each epoch
    ("pytorch-mnist-example",
     "Train Epoch: 1 [59520/60000 (99%)]\tLoss: 0.053154\n\n"
     "Test set: Average loss: 0.0479, Accuracy: 9846/10000 (98%)\n\n"
     "Train Epoch: 2 [0/60000 (0%)]\tLoss: 0.104512\n",
     {"loss": 0.104512, "val_loss": 0.0479, "epoch": 2.0}),
    # mmengine/runner/log_processor.py epoch-based: `Epoch(train)  [e][i/n]` is the epoch's batch,
    # `Epoch(val)` an evaluation; the next epoch is no restart (the loss history stays)
    ("mmengine-epochs",
     "2024/01/01 10:00:00 - mmengine - INFO - Epoch(train)  [1][1000/1000]  base_lr: 1.0000e-03 "
     "lr: 1.0000e-03  eta: 1 day, 1:00:00  time: 0.5000  data_time: 0.0100  memory: 12345  "
     "grad_norm: 12.3000  loss: 1.2345  loss_cls: 0.5000\n"
     "2024/01/01 10:05:00 - mmengine - INFO - Epoch(val)  [1][100/500]    eta: 0:01:00  "
     "time: 0.1000  data_time: 0.0100  memory: 1234\n"
     "2024/01/01 10:06:00 - mmengine - INFO - Epoch(train)  [2][ 50/1000]  base_lr: 1.0000e-03 "
     "lr: 1.0000e-03  eta: 23:00:00  time: 0.5000  data_time: 0.0100  memory: 12345  "
     "grad_norm: 11.3000  loss: 1.1345  loss_cls: 0.4000\n",
     {"epoch": 1.05, "step": 50, "total": 1000, "loss": 1.1345, "grad_norm": 11.3, "eta": None,
      "status": "running"}),
    # mlx_lm/tuner/trainer.py prints `Saved final weights to {adapter_file}.` when training returns
    ("mlx-lm-end",
     "Iter 200: Train loss 1.345, Learning Rate 1.000e-05, It/sec 0.5, Tokens/sec 123.4\n"
     "Iter 200: Val loss 1.234, Val took 10.5s\n"
     "Saved final weights to adapters/adapters.safetensors.\n",
     {"step": 200, "loss": 1.345, "val_loss": 1.234, "status": "finished"}),
    # transformers Trainer.log_metrics after train() (LLaMA-Factory, TRL, HF examples): the
    # summary's train_loss is the run's mean, train_runtime marks the end
    ("hf-train-metrics-block",
     "{'loss': 1.2345, 'grad_norm': 0.5, 'learning_rate': 2e-05, 'epoch': 3.0}\n"
     "***** train metrics *****\n  epoch                    =        3.0\n"
     "  total_flos               =  12345678GF\n  train_loss               =     0.5678\n"
     "  train_runtime            = 0:10:00.12\n  train_samples_per_second =     12.345\n",
     {"loss": 1.2345, "train_loss": 0.5678, "epoch": 3.0, "status": "finished"}),
    # a traceback printed straight after Lightning's bar, on its line: the bar's position stays
    ("lightning-bar-then-traceback",
     f"Epoch 0:  80%|{BAR}  | 80/100 [00:10<00:02, 7.9it/s, v_num=0, train_loss=0.500]"
     "Traceback (most recent call last):\n  File \"train.py\", line 5, in <module>\n"
     "    trainer.fit(model)\nRuntimeError: CUDA error: device-side assert triggered\n",
     {"step": 80, "total": 100, "loss": 0.5, "status": "crashed"}),
    # SLURM ending the job at its time limit
    ("slurm-time-limit",
     "step 100 loss 2.5\nslurmstepd: error: *** JOB 12345 ON node01 CANCELLED AT "
     "2024-01-01T10:00:00 DUE TO TIME LIMIT ***\n",
     {"step": 100, "loss": 2.5, "status": "crashed"}),
    # HF Trainer's evaluation bar (no description) inside the training's: a log cut mid-evaluation
    ("hf-eval-bar-nested",
     f" 50%|{BAR}     | 500/1000 [05:00<05:00,  1.66it/s]\n"
     "{'loss': 1.2, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': 0.5}\n"
     f" 50%|{BAR}     | 500/1000 [05:00<05:00,  1.66it/s]\n\n"
     "  0%|          | 0/63 [00:00<?, ?it/s]\n"
     f" 50%|{BAR}     | 32/63 [00:05<00:05,  6.1it/s]\n",
     {"step": 500, "total": 1000, "loss": 1.2}),
    # Keras' model.evaluate after fit: a bar of another length is the evaluation's
    ("keras-evaluate-after-fit",
     "Epoch 2/2\n1875/1875 [==============================] - 5s 3ms/step - loss: 0.0700 - "
     "accuracy: 0.9780\n313/313 [==============================] - 1s 2ms/step - loss: 0.0800 - "
     "accuracy: 0.9750\n",
     {"loss": 0.07, "val_loss": 0.08, "epoch": 2.0, "status": "finished"}),
    # a fit that validated (`- val_loss:` on each epoch bar), then `model.evaluate(X_test, y_test)`'s bar
    # (ageron/handson-ml3 10_neural_nets_with_keras.ipynb; corpus b54): the test set's figures, as
    # `test_`; fit's last val_loss stays the validation loss
    ("keras-evaluate-test-set-after-validated-fit",
     "Epoch 2/2\n363/363 [==============================] - 0s 1ms/step - loss: 0.3837 - val_loss: 3.6017\n"
     "162/162 [==============================] - 0s 781us/step - loss: 0.3652\n",
     {"loss": 0.3837, "val_loss": 3.6017, "test_loss": 0.3652, "epoch": 2.0, "status": "finished"}),
    # Keras 2's evaluate() on the training set: its bar has the epoch bar's length and starts over
    # under the last `Epoch` header (keras/utils/generic_utils.py Progbar prints `32/768 [>...] - ETA:`),
    # then the script prints the result (corpus b32, xitu/gold-miner#2326)
    ("keras-evaluate-same-length",
     "Epoch 2/2\n768/768 [==============================] - 0s - loss: 0.5416 - acc: 0.7331\n"
     "32/768 [>.............................] - ETA: 0s\nLoss: 0.51, Accuracy: 74.87%\n",
     {"loss": 0.5416, "val_loss": 0.51, "epoch": 2.0, "status": "finished"}),
    # swift-models TrainingLoop/Callbacks/ProgressPrinter.swift: each epoch's training bar, then its
    # validation bar of another length; the next `Epoch` header trains again
    ("swift-progress-printer-epochs",
     "Epoch 1/12\n468/468 [==============================] - loss: 0.5188 - accuracy: 0.8371\n"
     "79/79 [==============================] - loss: 0.2192 - accuracy: 0.9282\n"
     "Epoch 2/12\n468/468 [==============================] - loss: 0.1190 - accuracy: 0.9633\n"
     "79/79 [==============================] - loss: 0.0755 - accuracy: 0.9752\n",
     {"loss": 0.119, "val_loss": 0.0755, "epoch": 2.0}),
    # a callback's predict() bars (`1/1 [===] - 0s 39ms/step`, keras/utils/generic_utils.py Progbar)
    # between fit's lines: the epoch-end bar, printing `val_loss`, is still fit's (corpus b34)
    ("keras-callback-predict-bars",
     "Epoch 2/2\n1/1 [==============================] - 0s 44ms/step- loss: 0.45\n"
     "1/1 [==============================] - 0s 247ms/step\n"
     "760/760 [==============================] - 586s 771ms/step - loss: 0.4503 - val_loss: 0.0813\n",
     {"loss": 0.4503, "val_loss": 0.0813, "epoch": 2.0, "status": "finished"}),
    # DeepSpeed-Chat step2_dpo_finetuning/main.py: a `***** Evaluating rewards, Epoch e/E *****`
    # banner over `chosen: ..., rejected: ..., loss: ...` (the committed training_log_output, corpus b33)
    ("deepspeed-chat-evaluation-banner",
     "[2025-01-02 16:15:00,000] [INFO] [logging.py:128:log_dist] [Rank 0] step=2350, skipped=9, "
     "lr=[1.39e-08, 1.39e-08], mom=[(0.9, 0.95), (0.9, 0.95)]\n"
     "***** Evaluating rewards, Epoch 1/1 *****\n"
     "chosen: -31.9375, rejected: -33.96875, loss: 0.6650807857513428\n",
     {"step": 2350, "loss": None, "val_loss": 0.6650807857513428}),
    # PaddleOCR tools/program.py: `epoch: [{}/{}], global_step: {}, lr: {:.6f}, loss: ...`
    ("paddleocr-epoch-of-total",
     "[2024/01/01 10:00:00] ppocr INFO: epoch: [3/500], global_step: 300, lr: 0.001000, "
     "loss: 2.345000, avg_reader_cost: 0.01 s, avg_batch_cost: 0.5 s, ips: 32.0 samples/s, "
     "eta: 0:10:00\n",
     {"step": 300, "epoch": 3.0, "loss": 2.345, "lr": 0.001}),
    # YOLOv5 val.py's `('%20s' + '%11s' * 6) % ('Class', ..., 'mAP@.5', 'mAP@.5:.95')` header, its
    # last two names one space apart, then the `all` row: evaluation figures, not the epoch's
    ("yolov5-val-header",
     "     Epoch   gpu_mem       box       obj       cls    labels  img_size\n"
     f"      1/299     3.42G   0.04567   0.02345   0.01234        45       640: 100%|{BAR}| 100/100 "
     "[00:30<00:00,  3.3it/s]\n"
     "               Class     Images     Labels          P          R     mAP@.5 mAP@.5:.95: "
     f"100%|{BAR}| 16/16 [00:05<00:00,  3.0it/s]\n"
     "                 all        500       1234      0.567      0.456      0.432      0.234\n",
     {"box": 0.04567, "val_p": 0.567, "val_map@.5:.95": 0.234, "total_epochs": 300}),  # `epochs - 1` printed
    # YOLOv5's results.txt of 2020-21 (no header): train.py writes `('%10s' * 2 + '%10.4g' * 6) %
    # (epoch/epochs, mem, box, obj, cls, total, targets, img_size) + '%10.4g' * 7 % results`, the
    # columns utils/plots.py plot_results reads back with `usecols=[2, 3, 4, 8, 9, 12, 13, 14, 10, 11]`
    ("yolov5-results-txt-headerless",
     "     28/29     1.93G   0.05136   0.08735         0    0.1387        37       416    0.2269    0.6946"
     "    0.5094    0.2731   0.04756    0.0545         0\n"
     "     29/29     1.93G   0.05005   0.08632         0    0.1364        47       416     0.273    0.6925"
     "    0.5145    0.2736   0.04726   0.05303         0\n",
     {"box_loss": 0.05005, "obj_loss": 0.08632, "val_map@.5:.95": 0.2736, "val_box": 0.04726,
      "total_epochs": 29}),
    # the same rows under a line taken for a header of other columns (a paste's tabbed prose)
    ("yolov5-results-txt-after-prose",
     "Here\tis\tmy\tlog:\n"
     "     29/29     1.93G   0.05005   0.08632         0    0.1364        47       416     0.273    0.6925"
     "    0.5145    0.2736   0.04726   0.05303         0\n",
     {"box_loss": 0.05005, "obj_loss": 0.08632}),
    # flair/trainers/trainer.py: `epoch {} - iter {}/{} - loss ...`, then the dev set's `DEV : loss`
    ("flair-dev",
     "2024-01-01 10:00:00,000 epoch 1 - iter 90/100 - loss 1.23456789 - time (sec): 1.23 - "
     "samples/sec: 123.45 - lr: 0.100000 - momentum: 0.000000\n"
     "2024-01-01 10:00:10,000 EPOCH 1 done: loss 1.2000 - lr: 0.100000\n"
     "2024-01-01 10:00:12,000 DEV : loss 1.5 - f1-score (micro avg)  0.85\n"
     "2024-01-01 10:00:20,000 epoch 2 - iter 10/100 - loss 1.10000000 - time (sec): 1.23 - "
     "samples/sec: 123.45 - lr: 0.100000 - momentum: 0.000000\n",
     {"step": 10, "epoch": 2.0, "loss": 1.1, "val_loss": 1.5, "lr": 0.1}),
    # a script's `dev_loss` is the held-out set's
    ("dev-set-names",
     "step 100 | train_loss 2.31 | dev_loss 2.45 | dev_acc 0.61\n",
     {"step": 100, "loss": 2.31, "val_loss": 2.45, "val_acc": 0.61}),
    # wandb/sdk/wandb_run.py's footer after an HF run: the summary's train/loss is the last loss,
    # its train_loss the run's mean, its train_runtime the end
    ("wandb-run-summary",
     "{'loss': 0.8765, 'grad_norm': 0.5, 'learning_rate': 0.0, 'epoch': 3.0}\n"
     "wandb: \nwandb: Run history:\nwandb:          train/loss \u2588\u2586\u2585\u2584\u2583\u2582\u2581\u2581\n"
     "wandb: \nwandb: Run summary:\nwandb:               total_flos 1.2345e+16\n"
     "wandb:              train/epoch 3.0\nwandb:        train/global_step 189\n"
     "wandb:               train/loss 0.8765\nwandb:               train_loss 1.2345\n"
     "wandb:            train_runtime 600.12\nwandb: \n"
     "wandb: \U0001f680 View run fine-tune at: https://wandb.ai/me/proj/runs/abc\n",
     {"step": 189, "loss": 0.8765, "train_loss": 1.2345, "epoch": 3.0, "status": "finished"}),
    # lightning/pytorch/loops/utilities.py _print_results: rich's results table after test()
    ("lightning-test-table",
     f"Epoch 9: 100%|{BAR}| 100/100 [00:05<00:00, 19.1it/s, v_num=0, train_loss=0.345]\n"
     "`Trainer.fit` stopped: `max_epochs=10` reached.\n"
     "\u250f\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2513\n"
     "\u2503        Test metric        \u2503       DataLoader 0        \u2503\n"
     "\u2502         test_acc          \u2502    0.9700000286102295     \u2502\n"
     "\u2502         test_loss         \u2502    0.12345678901234567    \u2502\n",
     {"loss": 0.345, "test_loss": 0.12345, "test_acc": 0.97, "status": "finished"}),
    # the same after validate(), without rich: a logged `loss` there is the evaluation's
    ("lightning-validate-table",
     f"Epoch 9: 100%|{BAR}| 100/100 [00:05<00:00, 19.1it/s, v_num=0, train_loss=0.345]\n"
     + "\u2500" * 40 + "\n       Validate metric           DataLoader 0\n" + "\u2500" * 40 +
     "\n           loss             0.6000000238418579\n",
     {"loss": 0.345, "val_loss": 0.6}),
    # keras/src/callbacks/reduce_lr_on_plateau.py: a sentence whose figure ends it with a full stop
    ("keras-reduce-lr",
     "Epoch 5/10\n100/100 \u2501\u2501\u2501\u2501 1s 5ms/step - loss: 0.5000 - val_loss: 0.4000 - "
     "learning_rate: 0.0010\nEpoch 5: ReduceLROnPlateau reducing learning rate to "
     "0.00010000000474974513.\n",
     {"epoch": 5.0, "loss": 0.5, "lr": 0.0001}),
    # megatron/training/training.py: `exiting program at iteration {}` at --exit-interval
    ("megatron-exit-interval",
     " [2024-01-01 10:00:00] iteration      500/  100000 | consumed samples:        32000 | "
     "elapsed time per iteration (ms): 1234.5 | learning rate: 1.500000E-04 | global batch size:"
     "    64 | lm loss: 3.123456E+00 | loss scale: 1.0 | grad norm: 0.345 |\n"
     "exiting program at iteration 500\n",
     {"step": 500, "total": 100000, "loss": 3.123456, "status": "finished"}),
    # the notebook table with an epoch evaluation strategy: its rows are history under the bar
    ("hf-notebook-epoch-table-finished",
     "[1875/1875 10:00, Epoch 3/3]\nEpoch\tTraining Loss\tValidation Loss\tAccuracy\n"
     "1\t0.345600\t0.298765\t0.876543\n3\t0.123400\t0.301234\t0.891200\n",
     {"step": 1875, "epoch": 3.0, "loss": 0.1234, "val_loss": 0.301234, "status": "finished"}),
    ("hf-notebook-epoch-table-midway",
     "[ 939/1875 05:00 < 05:00, 3.13 it/s, Epoch 1.50/3]\n"
     "| Epoch | Training Loss | Validation Loss | Accuracy |\n|---|---|---|---|\n"
     "| 1 | 0.345600 | 0.298765 | 0.876543 |\n",
     {"step": 939, "total": 1875, "epoch": 1.5, "loss": 0.3456, "status": "running"}),
    # tflearn/callbacks.py TermLogger: the step line, then the optimizer's line whose iter counts
    # the epoch's samples (a log ending on it keeps the step, and no line restarts the run)
    ("tflearn-samples",
     "Training Step: 8  | total loss: 2.03040 | time: 0.275s\n"
     "| Adam | epoch: 001 | loss: 2.03040 - acc: 0.2720 -- iter: 00512/55000\n"
     "Training Step: 9  | total loss: 1.94953 | time: 0.186s\n"
     "| Adam | epoch: 001 | loss: 1.94953 - acc: 0.2935 -- iter: 00576/55000\n",
     {"step": 9, "loss": 1.94953, "epoch": 1.0, "acc": 0.2935}),
    # RichProgressBar's `Epoch {current}/{max_epochs - 1}`: a full bar ends the epoch, not the run
    ("lightning-rich-epoch-end",
     "Epoch 3/9  \u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501 220/220 0:00:10 \u2022 0:00:00 "
     "25.10it/s v_num: 0 train_loss: 0.150\n"
     "Epoch 4/9  \u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501 220/220 0:00:10 \u2022 0:00:00 "
     "25.10it/s v_num: 0 train_loss: 0.123\n",
     {"step": 220, "total": 220, "epoch": 5.0, "loss": 0.123, "status": "running"}),
    # Ignite's example counts Iteration[i/n] within the epoch: its end is the epoch's, not the run's
    ("ignite-epoch-end",
     "Epoch[1] Iteration[469/469] Loss: 0.30\n"
     "Training Results - Epoch: 1  Avg accuracy: 0.95 Avg loss: 0.17\n"
     "Validation Results - Epoch: 1  Avg accuracy: 0.95 Avg loss: 0.16\n",
     {"step": 469, "epoch": 1.0, "val_loss": 0.16, "status": "running"}),
    # a loop's own bar, `tqdm(loader, desc=f"Epoch {epoch + 1}/{epochs}")`: counted from 1
    ("tqdm-epoch-of-total-desc",
     f"Epoch 1/3: 100%|{BAR}| 100/100 [00:10<00:00, 9.8it/s, loss=0.5]\n"
     f"Epoch 2/3:  40%|{BAR}| 40/100 [00:04<00:06, 9.8it/s, loss=0.4]\n",
     {"step": 40, "total": 100, "epoch": 1.4, "loss": 0.4}),
    # --- read at source (round 2): each form's first commit, `git log -S'<format string>'` ---
    # torchtitan train.py at bd5176c (2024-02-01): `step: {step}, current loss: {loss}, lr: {get_last_lr()}`
    ("torchtitan-2024-02",
     "step: 10, current loss: 7.1234, lr: [0.0008]\n",
     {"step": 10, "loss": 7.1234, "lr": 0.0008}),
    # torchtitan train.py at 6d9e4e6 (2024-02-27): `loss: {..:>7}lr: ` with no space before `lr`
    ("torchtitan-2024-02-glued-lr",
     "step: 10  loss:  7.1234lr: 0.0008  \n",
     {"step": 10, "loss": 7.1234, "lr": 0.0008}),
    # torchtitan train.py at e62573d (2024-04-10): memory, `wps` (renamed `tps` at 4d182a1), mfu
    ("torchtitan-2024-04-wps",
     "[rank0]:2024-04-10 10:00:00,000 - root - INFO - step: 10  loss:  7.1234  memory: 30.12GiB(31.70%)  "
     "wps: 7,282  mfu: 12.34%\n",
     {"step": 10, "loss": 7.1234, "memory": 30.12, "tokens_per_s_per_device": 7282, "mfu": 0.1234}),
    # torchtitan components/metrics.py at a85e2a5 (2025-06-25, grad_norm) and 4e32663 (2025-02-18,
    # tflops); `mfu: N/A` when the peak FLOPS is unknown (HEAD b5bcd76)
    ("torchtitan-2025",
     "[rank0]:[titan] 2025-07-01 10:00:00,000 - root - INFO - step: 10  loss:  7.12345  grad_norm:  1.2345  "
     "memory: 30.12GiB(31.70%)  tps: 7,282  tflops: 123.45  mfu: N/A\n",
     {"step": 10, "loss": 7.12345, "grad_norm": 1.2345, "tokens_per_s_per_device": 7282, "tflops": 123.45}),
    # torchtitan components/metrics.py at 53f6642 (2025-07-15): `validate step: {step:2}  loss: ...`
    ("torchtitan-validate",
     "[titan] - root - INFO - step: 10  loss:  7.1234  memory: 30.12GiB(31.70%)  tps: 7,282  tflops: 1.2  mfu: 1.2%\n"
     "[titan] - root - INFO - validate step: 10  loss:  7.9000  memory: 30.12GiB(31.70%)  tps: 1,234\n",
     {"step": 10, "loss": 7.1234, "val_loss": 7.9}),
    # Megatron-LM pretrain_gpt2.py at abe36e2 (2019-07-29): names without colons
    ("megatron-2019-07",
     " iteration      100/  320000 | elapsed time per iteration (ms): 512.3 | learning rate 1.500E-04 | "
     "lm loss 7.123456E+00 | loss scale 131072.0 |\n",
     {"step": 100, "total": 320000, "loss": 7.123456, "lr": 1.5e-4}),
    # Megatron-LM megatron/training.py at 73af129 (2019-10-29): `name: value |`; 0076441 (2021-01-23)
    # adds `grad norm`; skipped and nan iterations are counts, not losses
    ("megatron-2021",
     " iteration      100/  320000 | consumed samples:        12800 | elapsed time per iteration (ms): 512.3 | "
     "learning rate: 1.500E-04 | global batch size:   128 | lm loss: 7.123456E+00 | loss scale: 1.0 | "
     "grad norm: 1.234 | number of skipped iterations:   3 | number of nan iterations:   0 |\n",
     {"step": 100, "total": 320000, "loss": 7.123456, "lr": 1.5e-4, "grad_norm": 1.234,
      "number_of_skipped_iterations": 3}),
    # Megatron-LM megatron/training/training.py at HEAD d98e8a6 (2026): the timestamp, `throughput per
    # GPU (TFLOP/s/GPU)` (since 2748e7c, 2023-11-26), `num zeros`, `params norm`
    ("megatron-2026",
     " [2026-08-22 10:00:00.123456] iteration      100/  320000 | consumed samples:        12800 | "
     "elapsed time per iteration (ms): 512.3 | throughput per GPU (TFLOP/s/GPU): 150.2 | "
     "learning rate: 1.500000E-04 | global batch size:   128 | lm loss: 7.123456E+00 | loss scale: 1.0 | "
     "grad norm: 1.234 | num zeros: 0 | params norm: 250.123 | number of skipped iterations:   0 | "
     "number of nan iterations:   0 |\n",
     {"step": 100, "loss": 7.123456, "grad_norm": 1.234, "tflops_per_device": 150.2}),
    # Megatron-LM `evaluate_and_print_results`: ` validation loss at iteration N | lm loss value: ... |`
    # (megatron/training.py at 73af129, 2019), each set named since b6a7f40 (2025-08-16)
    ("megatron-validation",
     " iteration      100/  320000 | lm loss: 7.123456E+00 | grad norm: 1.2 |\n"
     " validation loss at iteration 100 | lm loss value: 6.500000E+00 | lm loss PPL: 6.650000E+02 | \n",
     {"step": 100, "loss": 7.123456, "val_loss": 6.5}),
    ("megatron-validation-named-sets",
     " iteration      100/  320000 | lm loss: 7.123456E+00 | grad norm: 1.2 |\n"
     " validation-wiki loss at iteration 100 | lm loss value: 6.500000E+00 | lm loss PPL: 6.650000E+02 | \n"
     " validation-code loss at iteration 100 | lm loss value: 5.500000E+00 | lm loss PPL: 2.446919E+02 | \n",
     {"step": 100, "loss": 7.123456, "val_wiki_loss": 6.5, "val_code_loss": 5.5, "val_loss": 5.5}),
    # DeepSpeed deepspeed/utils/timer.py at 5bd09a8 (2022-07-26): the global step and samples/s
    # (the step's own `CurrSamplesPerSec`, not the running average printed before it)
    ("deepspeed-timer-2022",
     "[2024-01-01 10:00:00,123] [INFO] [timer.py:260:stop] epoch=0/micro_step=10/global_step=10, "
     "RunningAvgSamplesPerSec=123.4, CurrSamplesPerSec=130.2, MemAllocated=1.2GB, MaxMemAllocated=3.4GB\n",
     {"step": 10, "samples_per_s": 130.2}),
    # DeepSpeed deepspeed/runtime/pipe/engine.py at 08e0733 (2024-04-08): a MoE model's other losses
    ("deepspeed-pipe-moe",
     "steps: 20 loss: 7.1234 moe_loss: 0.0123 iter time (s): 0.512 samples/sec: 250.000\n",
     {"step": 20, "loss": 7.1234, "moe_loss": 0.0123, "samples_per_s": 250}),
    # fairseq fairseq/progress_bar.py JsonProgressBar since c6d6256 (2017-11-11), as at HEAD 3d262bb
    # (fairseq/logging/progress_bar.py): `update` is the epochs done, `epoch - 1 + (i + 1) / size`
    ("fairseq-json-inner",
     '2021-01-01 10:00:00 | INFO | train_inner | {"epoch": 2, "update": 1.049, "loss": "9.234", '
     '"nll_loss": "9.0", "ppl": "512", "wps": "12345", "ups": "3.2", "num_updates": "1100", "lr": "0.0001", '
     '"gnorm": "1.2", "clip": "0", "train_wall": "30", "wall": "40"}\n',
     {"step": 1100, "epoch": 1.049, "loss": 9.234, "lr": 0.0001, "grad_norm": 1.2}),
    # ... and its end-of-epoch `print` with the tag before each key (`progress.print(stats, tag="train")`)
    ("fairseq-json-print",
     '2021-01-01 10:00:00 | INFO | train | {"epoch": 2, "train_loss": "9.1", "train_num_updates": "2000", '
     '"train_lr": "0.0001", "train_gnorm": "1.1"}\n'
     '2021-01-01 10:00:00 | INFO | valid | {"epoch": 2, "valid_loss": "3.9", "valid_ppl": "4.3", '
     '"valid_num_updates": "2000", "valid_best_loss": "3.9"}\n',
     {"step": 2000, "loss": 9.1, "val_loss": 3.9}),
    # fairseq SimpleProgressBar.print at HEAD 3d262bb: `{prefix} | k v | ...`, the validation's prefix
    # `valid on '{subset}' subset` (fairseq_cli/train.py)
    ("fairseq-simple-print",
     "2021-01-01 10:00:00 | INFO | valid | epoch 002 | valid on 'valid' subset | loss 3.9 | nll_loss 2.1 | "
     "ppl 4.3 | wps 1234 | num_updates 2000 | best_loss 3.9\n"
     "2021-01-01 10:00:00 | INFO | train | epoch 002 | loss 9.1 | nll_loss 9 | ppl 512 | wps 12345 | "
     "ups 3.2 | num_updates 2000 | lr 0.0001 | gnorm 1.1 | clip 0 | train_wall 300 | wall 400\n",
     {"step": 2000, "loss": 9.1, "val_loss": 3.9, "lr": 0.0001}),
    # transformers 2.x/3.x trainer.py `_log`: `json.dumps({**logs, **{"step": self.global_step}})` written
    # through the tqdm bar (`iterator.write(output)`), then `print(output)` of the dict
    ("hf-trainer-2x-json-step",
     f" 35%|{BAR * 3}       | 350/1000 [01:23<02:34,  4.20it/s]"
     '{"loss": 2.345, "learning_rate": 4.5e-05, "epoch": 0.35, "step": 350}\n',
     {"step": 350, "total": 1000, "loss": 2.345, "lr": 4.5e-05, "epoch": 0.35}),
    ("hf-trainer-3x-dict-step",
     "{'loss': 2.345, 'learning_rate': 4.5e-05, 'epoch': 0.35, 'step': 350}\n"
     "{'eval_loss': 0.5, 'eval_runtime': 1.2, 'eval_samples_per_second': 100.0, 'epoch': 0.35, 'step': 350}\n",
     {"step": 350, "loss": 2.345, "val_loss": 0.5}),
    # transformers 4.x `Trainer.train` end: the `train_runtime` dict (`train_loss` the run's mean), then
    # the returned TrainOutput when a script prints it
    ("hf-trainer-4x-end",
     f" 35%|{BAR * 3}       | 350/1000 [01:23<02:34,  4.20it/s]\n"
     "{'loss': 2.345, 'grad_norm': 1.5, 'learning_rate': 4.5e-05, 'epoch': 0.35}\n"
     f"100%|{BAR * 10}| 1000/1000 [05:00<00:00,  3.33it/s]\n"
     "{'train_runtime': 300.1, 'train_samples_per_second': 53.3, 'train_steps_per_second': 3.33, "
     "'train_loss': 2.1, 'epoch': 1.0}\n",
     {"step": 1000, "total": 1000, "loss": 2.345, "grad_norm": 1.5, "status": "finished"}),
    # Lightning CSVLogger metrics.csv (lightning/fabric/loggers/csv_logs.py at 7f0c343: sorted keys,
    # `csv.DictWriter`, a cell left empty where a row did not log that key)
    ("lightning-metrics-csv",
     "epoch,lr-AdamW,step,train_loss_epoch,train_loss_step,val_acc,val_loss\n"
     "0,0.001,49,,0.693,,\n0,,99,,,0.71,0.58\n0,,99,0.65,,,\n1,0.001,149,,0.55,,\n",
     {"step": 149, "loss": 0.55, "lr": 0.001, "val_loss": 0.58, "epoch": 1}),
    # espnet2/train/reporter.py `log_message` at the end of an epoch: `{epoch}epoch results: [train]
    # k=v, ..., [valid] k=v, ...` (a real line quoted in a public fine-tuning script)
    ("espnet-epoch-results",
     "[host] 2020-09-17 18:14:26,464 (trainer:243) INFO: 1epoch results: [train] iter_time=0.164, "
     "forward_time=0.952, loss=480.386, loss_att=191.654, loss_ctc=1.154e+03, acc=1.022e-04, "
     "lr_0=2.080e-06, train_time=2.105, time=1 minute and 43.19 seconds, total_count=49, [valid] "
     "loss=479.955, acc=1.030e-04, cer=1.010, wer=1.000, time=50.5 seconds, total_count=49\n",
     {"loss": 480.386, "lr": 2.08e-06, "val_loss": 479.955, "val_wer": 1.0}),
    # an HF model card's "Training results" (transformers modelcard.py `make_markdown_table` over
    # `parse_log_history`: `No log` where no training loss was logged before the evaluation)
    ("hf-model-card-table",
     "| Training Loss | Epoch | Step | Validation Loss | Accuracy |\n"
     "|:-------------:|:-----:|:----:|:---------------:|:--------:|\n"
     "| No log        | 1.0   | 63   | 0.4512          | 0.81     |\n"
     "| 0.3012        | 2.0   | 126  | 0.3921          | 0.86     |\n",
     {"step": 126, "epoch": 2.0, "loss": 0.3012, "val_loss": 0.3921}),
    # a notebook's tqdm widgets saved where ipywidgets did not render: their repr on a line of its own
    ("notebook-widget-placeholders",
     "HBox(children=(FloatProgress(value=0.0, max=3.0), HTML(value='')))\nEpoch 1/3 loss 0.9\n"
     "HBox(children=(FloatProgress(value=0.0, max=100.0), HTML(value='')))\n\nEpoch 2/3 loss 0.7\n",
     {"loss": 0.7}),
    # ColossalAI's DistributedLogger (colossalai/logging/logger.py, rich's RichHandler): a narrow
    # terminal wraps the record's path onto a line of its own under an empty message
    ("colossalai-rich-path-wrapped",
     "[12/01/23 10:00:00] INFO     colossalai - colossalai - INFO:                    \n"
     "                             /home/user/ColossalAI/examples/train.py:120 main    \n"
     "                    INFO     colossalai - colossalai - INFO: Epoch 1 - step 20 - loss 2.3\n",
     {"step": 20, "loss": 2.3}),
    # a Ray actor's prefix left alone on its line when the paste wrapped (verl's TaskRunner)
    ("ray-prefix-on-its-own-line",
     "(TaskRunner pid=1234)\nstep:5 - actor/pg_loss:0.012 - actor/lr:1e-06 - actor/grad_norm:0.3\n",
     {"step": 5, "lr": 1e-06, "grad_norm": 0.3}),
]


def _figure(snap, key: str):
    fields = {"step": snap.step, "total": snap.total_steps, "loss": snap.loss, "lr": snap.lr,
              "epoch": snap.epoch, "grad_norm": snap.grad_norm, "status": snap.status}
    if key in fields:
        return fields[key]
    return snap.metrics.get(key, snap.metrics.get("eval_" + key[4:]) if key.startswith("val_") else None)


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[case[0] for case in CASES])
def test_each_frameworks_own_format_reads_right(tmp_path: Path, name: str, text: str,
                                                expected: dict) -> None:
    log = tmp_path / f"{name}.log"
    log.write_text(text)
    snap = read_log(log)
    wrong = {}
    for key, want in expected.items():
        got = _figure(snap, key)
        if isinstance(want, str) or want is None:
            if got != want:
                wrong[key] = (got, want)
        elif math.isnan(want):
            if not isinstance(got, float) or not math.isnan(got):
                wrong[key] = (got, want)
        elif not isinstance(got, int | float) or not math.isclose(got, want, rel_tol=1e-3, abs_tol=1e-3):
            wrong[key] = (got, want)
    assert not wrong, wrong


@pytest.mark.parametrize("evaluation", [
    "step 100 | eval | loss 0.5", "[eval] step 100 loss 0.5", "Eval at step 100: loss=0.5",
    "Evaluation at step 100: loss 0.5, ppl 1.6", "INFO - Validation | epoch 3 | loss 0.5",
    "test: loss 0.5", "Step 100 (eval): loss 0.5", "step 100 - val - loss: 0.5",
    "[Validation] Epoch 3 loss: 0.5", "Epoch 3 | Val | loss 0.5", "eval step 100: loss 0.5",
    "valid | epoch 3 | loss 0.5",
])
def test_an_interleaved_evaluation_is_never_the_training_loss(tmp_path: Path, evaluation: str) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 100 loss 1.5 lr 1e-4\n" + evaluation + "\n")
    snap = read_log(log)
    assert (snap.loss, snap.metrics.get("val_loss")) == (1.5, 0.5)


@pytest.mark.parametrize("line", [
    "loss: nan", "loss=NaN", "loss=nan.0", "{'loss': nan, 'learning_rate': 1e-05, 'epoch': 0.5}",
    "loss: -inf", "loss: Infinity", "loss: tensor(nan, device='cuda:0', grad_fn=<AddBackward0>)",
    "Epoch: [0]  [ 20/100]  eta: 0:00:10  lr: 0.0001  loss: nan (nan)  time: 0.1",
    "iteration 20/ 100 | lm loss: nan |", "Step 20: loss = nan",  # DeiT's `Loss is nan, stopping training` exits: test_trainlog_endings
    f"Epoch 0:   3%|{BAR}| 9/300 [00:10<05:00, 0.9it/s, v_num=0, train_loss=inf.0]",
])
def test_a_non_finite_loss_is_read_and_diverges(tmp_path: Path, line: str) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 10 loss 1.5\n" + line + "\n")
    snap = read_log(log)
    assert snap.loss is not None and not math.isfinite(snap.loss) and snap.status == "diverged"


@pytest.mark.parametrize("prefix", [
    "[1,mpirank:0,algo-1]<stderr>:", "[1,0]<stdout>:", "(RayTrainWorker pid=1234, ip=10.0.0.1) ",
    "[rank0]:", "[default0]:", "0: ", "2024-01-01T10:00:00.123456789Z ", "trainer-1  | ",
    "algo-1-abcde | ", "worker-0: ", "10.0.0.2: ", "(task, pid=1234) ",
    "Jan 01 10:00:00 host python[1234]: ", "I0101 10:00:00.000000 140000 train.py:10] ",
    "[2024-01-01 10:00:00,000] [INFO] [real_accelerator.py:203:get_accelerator] ", "wandb: ",
])
def test_hf_trainer_reads_through_each_launcher_prefix(tmp_path: Path, prefix: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"{prefix}  5%|{BAR}| 10/200 [00:10<03:10,  1.00it/s]\n"
                   f"{prefix}{{'loss': 1.2345, 'grad_norm': 0.5, 'learning_rate': 2e-05, 'epoch': 0.05}}\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.loss, snap.lr) == (10, 200, 1.2345, 2e-05)


def test_tf_estimator_final_loss_then_evaluation_results(tmp_path: Path) -> None:
    # tensorflow_estimator estimator.py: `'loss = %s, step = %s'` (LoggingTensorHook), `'Loss for final step:
    # %s.'` (_train_with_estimator_spec), `'Saving dict for global step %d: %s'` (_write_dict_to_summary);
    # google-research/bert run_classifier.py: `"  Num steps = %d"`, `"***** Eval results *****"` then `"  %s = %s"`
    log = tmp_path / "train.log"
    log.write_text(
        "INFO:tensorflow:  Num steps = 5468\n"
        "INFO:tensorflow:loss = 0.01693129, step = 5400 (147.086 sec)\n"
        "INFO:tensorflow:Saving checkpoints for 5468 into /tmp/result/model.ckpt.\n"
        "INFO:tensorflow:Loss for final step: 0.0025181356.\n"
        "INFO:tensorflow:Saving dict for global step 5468: eval_accuracy = 0.8500477, eval_loss = 0.7216634,"
        " global_step = 5468, loss = 0.7218847\n"
        "INFO:tensorflow:***** Eval results *****\n"
        "INFO:tensorflow:  eval_accuracy = 0.8500477\n"
        "INFO:tensorflow:  eval_loss = 0.7216634\n"
        "INFO:tensorflow:  global_step = 5468\n"
        "INFO:tensorflow:  loss = 0.7218847\n")
    snap = read_log(log)
    assert snap.loss == 0.0025181356  # the training's, not the evaluation's own `loss`
    assert snap.metrics["eval_loss"] == 0.7216634 and "val_loss" not in snap.metrics
    assert snap.status == "finished"


def test_yolov5_epochs_completed_counts_the_epochs_done(tmp_path: Path) -> None:
    # ultralytics/yolov5 train.py: rows `('%10s' * 2 + '%10.4g' * 5) % (f'{epoch}/{epochs - 1}', mem, *mloss, ...)`
    # count epochs from 0; at the end `f'\n{epoch - start_epoch + 1} epochs completed in {...:.3f} hours.'`
    log = tmp_path / "train.log"
    log.write_text(
        "     Epoch   gpu_mem       box       obj       cls    labels  img_size\n"
        "       0/0     4.51G   0.08212   0.05001         0        22      1280: 100%|###\n"
        "\n"
        "1 epochs completed in 0.024 hours.\n")
    snap = read_log(log)
    assert (snap.epoch, snap.status) == (1.0, "finished")
    assert snap.metrics["box_loss"] == 0.08212
