"""The lines with which a training run says it is over: one table, one row per way of saying it.

Each row is (marker, pattern, example): the marker is a cheap substring every matching line holds,
the pattern decides, and the example is a real line (tests read every one and must see it end a run).
"""

from __future__ import annotations

import re

# Where the plain words for the end may start: the line's start after any decoration (`*** `,
# `==> `, an emoji), or after a logger's prefix.
_LEAD = r"(?:^[^\w\s]*\s*|[\]:|-]\s*)"
_TRAINING = r"(?:(?:the|model)\s+)?(?:pre-?)?training"  # `Training`, `Model training`, `Pretraining`
_NOT_A_PART = r"(?!\s+(?:for|of|on)\b|\s*epoch)"  # not `... for epoch 3`, `... of stage 1`

_ROWS: tuple[tuple[str, str, str], ...] = (
    # Lightning
    ("Trainer.fit` stopped", r"`Trainer\.fit` stopped: .*\breached\b",
     "`Trainer.fit` stopped: `max_epochs=3` reached."),
    # YOLOv5/Ultralytics
    (" completed in ", r"^\d+ epochs? completed in [\d.]+ hours\b", "300 epochs completed in 8.675 hours."),
    # HF `Training completed. ...`, torchtitan `Training completed`, axolotl `Training Completed!!!`
    ("raining ", rf"{_LEAD}{_TRAINING} complete(?:d)?\b(?!\s+(?:for|epoch|step))",
     "Training completed. Do not forget to share your model on huggingface.co/models =)"),
    # the plain words many scripts print: `Training finished.`, `Training done. Best val acc: 0.5`,
    # `Training is over`, `Finished training`, `End of training`, `*** Training finished ***`
    ("raining", rf"{_LEAD}{_TRAINING} (?:is\s+|has\s+)?(?:done|finished|ended|over)\b{_NOT_A_PART}",
     "Training finished."),
    ("raining", rf"{_LEAD}(?:finished|done|end of|ended) (?:pre-?)?training\b{_NOT_A_PART}",
     "2024-01-01 10:00:00 | INFO | Finished training"),
    # the same words for fine-tuning
    ("tuning", rf"{_LEAD}(?:fine-?tuning (?:is\s+|has\s+)?(?:complete(?:d)?|done|finished|ended|over)"
               rf"|(?:finished|done|end of|ended) fine-?tuning)\b{_NOT_A_PART}", "Fine-tuning finished."),
    # pygcn/GAT (tkipf/pygcn train.py): `Optimization Finished!`, then the time elapsed
    ("ptimization Finished", r"^Optimization Finished!", "Optimization Finished!"),
    # an IDE's or a wrapper's last line for a clean exit
    ("Process finished", r"^Process finished with exit code 0$", "Process finished with exit code 0"),
    # W&B closing the run: its summary and the sync of its files
    ("Run summary", r"^Run summary:$", "wandb: Run summary:"),
    ("W&B file", r"^Synced \d+ W&B file", "wandb: Synced 5 W&B file(s), 0 media file(s), 0 artifact file(s)"),
    # ezpz's launcher once the command it ran exited 0 (saforem2/ezpz src/ezpz/launch.py `launch`)
    ("Execution finished", r"^Execution finished with 0\.?$", "Execution finished with 0."),
    # DeepSpeed's launcher once a worker exited 0
    ("exits successfully", r"^Process \d+ exits successfully\b",
     "[2023-05-01 10:00:00,123] [INFO] [launch.py:347:main] Process 12345 exits successfully."),
    # TF Estimator's `train()` returning
    ("Loss for final step", r"^Loss for final step: ", "INFO:tensorflow:Loss for final step: 0.123."),
    # spaCy's `spacy train`
    ("Saved pipeline to output directory", r"\bSaved pipeline to output directory\b",
     "\u2714 Saved pipeline to output directory"),
    # SageMaker's estimator: `2020-05-24 21:14:22 Completed - Training job completed`, then billing
    ("raining job", r"\bCompleted - Training job completed\b",
     "2020-05-24 21:14:22 Completed - Training job completed"),
    ("Billable seconds", r"^Billable seconds: \d+", "Billable seconds: 43"),
    # fairseq
    ("done training", r"\bdone training in\b", "done training in 39.5 seconds"),
    # Megatron
    ("after training is done", r"\[after training is done\]",
     "[after training is done] datetime: 2023-01-01 10:00:00"),
    ("exiting program", r"\bexiting program (?:at iteration|after) \d+", "exiting program at iteration 500"),
    # Detectron2, maskrcnn-benchmark
    ("raining time", r"^Total training time: (?:\d+ days?, )?[\d:]+", "Total training time: 0:02:10"),
    # LitGPT `Training time: 123.45s` and its pretraining box `| - Training Time : 48.30 s`
    ("raining ", r"^[|\s-]*Training time\s*:\s*[\d.]+\s*s$", "| - Training Time : 48.30 s"),
    # DETR/DeiT/MAE
    ("raining time", r"^Training time (?:\d+ days?, )?\d+:\d\d:\d\d$", "Training time 2 days, 3:04:05"),
    # ESPnet
    ("training was finished", r"\bThe training was finished at \d+ epochs",
     "The training was finished at 35 epochs"),
    # YOLOX
    ("raining of experiment is done", r"\bTraining of experiment is done\b",
     "Training of experiment is done and the best AP is 40.12"),
    # timm
    ("*** Best metric: ", r"^\*\*\* Best metric: ", "*** Best metric: 80.1 (epoch 299)"),
    # PyTorch's tutorial
    ("Finished Training", r"^Finished Training\b", "Finished Training"),
    # torchrun's agent once every worker exited 0
    ("worker group", r"\bworker group successfully finished\b",
     "[INFO] [local_elastic_agent] worker group successfully finished."),
    ("worker group", r"\bworker group finished \(WorkerState\.SUCCEEDED\)",
     "Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents"),
    # Keras EarlyStopping, Ultralytics' patience
    ("early stopping", r"^Epoch \d+: early stopping\b", "Epoch 8: early stopping"),
    ("Restoring model weights", r"^Restoring model weights from the end of the best epoch",
     "Restoring model weights from the end of the best epoch: 6."),
    ("Stopping training early", r"\bStopping training early as no improvement",
     "Stopping training early as no improvement observed in last 50 epochs."),
    # early stopping in any trainer's words: Ultralytics 8.3's `EarlyStopping: Training stopped early`,
    # pytorchtools' and custom loops' `Early stopping`, `Early stopping at epoch 12`, `Early stopping
    # triggered`, fastai's `No improvement since epoch 3: early stopping` (not a counter or a setting:
    # `EarlyStopping counter: 3 out of 10`, `early stopping patience: 10`)
    ("arly", r"(?:^|[\]:|-]\s*)(?:early stopping(?: triggered| at (?:epoch|step|iter(?:ation)?) \d+)?[.!]?$"
             r"|training stopped early\b)",
     "EarlyStopping: Training stopped early as no improvement observed in last 300 epochs."),
    # Lightning's EarlyStopping (no improvement, a threshold, a non-finite metric) and Timer callbacks
    ("Signaling Trainer to stop", r"\bSignaling Trainer to stop\b",
     "Monitored metric val_loss did not improve in the last 3 records. Best score: 0.123. Signaling Trainer to stop."),
    # mlx-lm `Saved final weights to adapters.safetensors.`, `Saving final model to ...`
    ("ed final ", r"^Saved final (?:weights|model|checkpoint)\b", "Saved final weights to adapters.safetensors."),
    ("ing final ", r"^Saving final (?:weights|model|checkpoint)\b", "Saving final model to output/final"),
    # darknet writes `<cfg>_final.weights` once max_batches is reached
    ("_final.weights", r"^Saving weights to \S*_final\.weights$",
     "Saving weights to backup//yolo-obj_final.weights"),
    # max_steps: llama-recipes, HF-style scripts
    ("eached", r"\bmax(?:imum)?[ _](?:number of )?(?:training[ _])?(?:steps|iters|iterations|epochs)(?:=\d+)?"
               r" (?:reached|has been reached|is reached)\b",
     "max training steps reached, stopping training, total_train_steps:  6"),
    ("eached", r"\breached (?:the )?max(?:imum)?[ _](?:number of )?(?:training[ _])?(?:steps|iters|iterations|epochs)\b",
     "Reached max_steps, stopping."),
    # llama-recipes' closing summary `Key: avg_train_loss, Value: 0.2456`
    ("Key: avg_", r"^Key: avg_(?:train|eval|epoch|checkpoint)_\w+, Value: ",
     "Key: avg_train_loss, Value: 0.24563908576965332"),
    # the Trainer's `***** train metrics *****` block and W&B's summary of it
    ("train_runtime", r"^\s*train_runtime\s+=?\s*[\d:.]+\s*$", "  train_runtime            = 0:10:00.12"),
)
ROWS = tuple((marker, re.compile(pattern, re.IGNORECASE), example) for marker, pattern, example in _ROWS)
# Any row's marker, in one scan: most lines hold none and skip the rows one by one. A marker that holds
# another (`raining job` holds `raining`) adds nothing to the scan.
_MARKERS = tuple(dict.fromkeys(marker for marker, _, _ in _ROWS))
_ANY_MARKER = re.compile("|".join(re.escape(marker) for marker in _MARKERS
                                  if not any(other in marker for other in _MARKERS if other != marker)))


def says_run_ended(text: str) -> bool:
    """Whether a cleaned line says the run is over (any row's marker occurs and its pattern
    matches), indented or not (a paste set as a Markdown indented block)."""
    text = text.lstrip()
    return bool(_ANY_MARKER.search(text)) and any(marker in text and pattern.search(text) for marker, pattern, _ in ROWS)
