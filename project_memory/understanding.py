"""Understanding a question as engineers type it: intent, conditions and how sure we are.

Every intent is scored from several signals: the domain's words and abbreviations (a lexicon),
typo-tolerant matching of unknown words against that lexicon (rapidfuzz, loaded only when a word
is unknown), the memory's own vocabulary (engines, models, configs, lesson titles, run names),
and the conditions the question names. Deterministic and offline.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import Conditions, default_conditions

INTENTS = ("baseline", "speedup", "run", "gpu", "lessons", "benchmarks", "search")
ENGINES = ("sglang", "vllm", "trtllm", "tensorrt-llm", "llama.cpp", "tgi", "lmdeploy", "exllama")
UNSURE_BELOW = 0.5
"""Below this confidence an answer also shows the runner-up intent's best candidates."""
_TYPO_TARGETS = frozenset(
    "baseline speedup accept acceptance throughput command memory utilization utilisation "
    "progress training benchmark benchmarks sglang vllm concurrency".split())
"""Words that typos are matched to besides the lexicon: the long words phrases are built from."""

# Phrases rewritten to one canonical token before scoring: abbreviations, jargon, spellings. Each
# is (words one of which must appear, pattern, token): a question compiles only the patterns it
# may match, which keeps `ask` start-up small.
_PHRASES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("w/", "without", "sans", "minus"),
     r"\bw/o\b|\bwithout\b|\bw/out\b|\bsans\b|\bminus\b", " without "),
    (("w/",),
     r"\bw/(?=\s|\w)", " with "),
    (("no", "spec", "vanilla", "plain", "target", "stock", "bare", "off", "disable", "not ", "n't",
      "never", "stop"),
     r"\bno[- ]?spec(?:ulative|ulation)?\b|\bnon[- ]?spec(?:ulative)?\b|\bspec(?:ulation)? off\b"
     r"|\bnon?[- ]?draft(?:er)?\b|\bnon?[- ]?eagle\d?\b|\bnon?[- ]?mtp\b|\bplain decod\w*|\bvanilla\b"
     r"|\btarget[- ]only\b|\bstock\b|\bbare\b|\bnon[- ]?eagle\b"
     r"|\b(?:spec\w*|eagle\d?|drafter|mtp)(?: decoding| dec)? (?:is |was )?(?:off|disabled)\b"
     r"|\b(?:disabled?|turned off|switched off) (?:the )?(?:spec\w*|eagle\d?|drafter|mtp)\b"
     r"|\b(?:just )?(?:the )?target(?: model)? (?:alone|only|by itself|on its own)\b"
     r"|\b(?:not|aren't|arent|isn't|don't|dont|never|stop) (?:using|use|running|run|enabling|loading)"
     r" (?:the |any |a )?(?:spec\w*|eagle\d?|drafter|draft(?:[\s-]model)?|mtp)\b",
     " nospec "),
    (("spe", "spp"),
     r"\bspeed[\s-]?ups?\b|\bsped[\s-]?up\b|\bspeedu?p\b|\bspeeup\b|\bspped\s?up\b"
     r"|\bspeeds? (?:things|it|us|decoding|generation|inference|serving) up\b", " speedup "),
    (("even", "1x", "1.0x", "1.0 x", "1 x", "parity"),
     r"\bbreak[\s-]?even\b|(?<![\w.=])1(?:\.0+)?\s?x\b|\bparity\b", " breakeven "),
    (("equal", "same", "level", "tied"),
     r"\b(?:are|is|become|becomes|get|gets) (?:equal|the same|level|even|tied)\b", " breakeven "),
    (("warm", "method", "protocol", "procedure"),
     r"\bwarm[\s-]?ups?\b|\bwarming up\b|\bmethodology\b|\bprotocol\b|\bprocedure\b", " recipe "),
    (("cross", "stop", "longer", "concurrency", "what c", "which c", "what l", "which l", "what b",
      "which b", "scal", "flip", "turn", "breakeven"),
     r"\bcross[\s-]?overs?\b|\bstop(?:s|ped)? (?:paying|helping|winning|working|mattering"
     r"|making sense|beating|outperforming|being (?:faster|worth\w*|a win|better|ahead))\b"
     r"|\bconcurrency (?:where|at which|when|from which)\b"
     r"|\bno longer (?:pays|helps|wins|faster|worth\w*|better|ahead)\b"
     r"|\b(?:at|from|up to|until|till|past|beyond) (?:what|which) (?:c|conc\w*|load|batch[\s-]?size)\b"
     r"|\b(?:which|what) concurrency\b|\bscal(?:e|es|ing) (?:with|across|over) (?:concurrency|load|c)\b"
     r"|\b(?:where|when|at what \w+) (?:does|do|did) (?:it|the \w+) (?:flip|cross|turn)\b"
     r"|\bbreakeven\s+(?:concurrency|c)\b|\bconcurrency\s+(?:breakeven|limit)\b", " crossover "),
    (("high", "load", "concurren", "c=", " to c", " or c", " and c"),
     r"\bhigh(?:er)? (?:concurrency|load|c)\b|\bunder (?:heavy |real )?load\b"
     r"|\b(?:across|over|by|per|vs|versus|against|with) (?:different |all |each |the )?"
     r"(?:concurrenc(?:y|ies)|load levels)\b"
     r"|\b(?:c|concurrency)\s*[=:]?\s*\d+\s*(?:or|and|to|vs|,|/)\s*(?:c\s*[=:]?\s*)?\d+\b"
     r"|\b(?:go|goes|going|move|moving|scale|scaling|push|pushing|ramp|ramping)(?: up)? to"
     r" (?:c\s*[=:]?\s*|concurrency\s*)\d+\b"
     r"|\bas concurrency (?:grows|increases|goes up|rises)\b|\bmore concurrency\b", " highload "),
    (("going for", "aim", "shooting", "our", "project"),
     r"\b(?:going|aiming|shooting) for\b|\baim(?:ing)? (?:at|to)\b"
     r"|\b(?:our|the project'?s?|project) (?:target|goal|aim|objective)s?\b", " goal "),
    (("beat",),
     r"\bnumber to beat\b|\bto beat\b|\bbar to beat\b", " baseline "),
    (("bl", "b/l", "bsl", "base", "ref"),
     r"\bb/?l\b|\bbsl\b|\bbaselines\b|\bbase[- ]line\b|\bref(?:erence)? (?:number|run|config|result)s?\b",
     " baseline "),
    (("acc", " al", "tau"),
     r"\b(?:al|tau)(?=\d)|\baccept(?:ance)?[\s_-]*(?:len(?:gth)?|rate|ratio)\b|\bacc[\s_.-]*len(?:gth)?\b|\bal\b"
     r"|\btau\b|\bacceptance\b|\baccepted tokens\b|\bacc_?len\b", " acceptlen "),
    (("spec",),
     r"\bspec[\s-]?dec(?:ode|oding)?\b|\bspeculative(?: decoding)?\b|\bspecdec\b", " spec "),
    (("put", "/", "tps", "per sec"),
     r"\bt[\s-]?put\b|\bthru[\s-]?put\b|\bthroughput\b|\btok(?:en)?s?\s*/\s*s(?:ec)?\b|\btps\b"
     r"|\btokens? per sec(?:ond)?\b|\bt/s\b", " throughput "),
    (("perf",),
     r"\bperf\b|\bperformance\b", " perf "),
    (("rn", "now", "current", "moment", "atm"),
     r"\brn\b|\bright now\b|\bcurrently\b|\bat the moment\b|\batm\b", " now "),
    (("single", "1", "one stream", "unbatched"),
     r"\bsingle[\s-]?stream\b|\bbs\s*=?\s*1\b|\bbatch(?:[\s-]?size)?\s*(?:of\s*)?=?\s*1\b"
     r"|\bc\s*=?\s*1\b|\bconcurrency\s*(?:of\s*)?=?\s*1\b|\bone stream\b|\bsingle user\b"
     r"|\bsingle request\b|\bunbatched\b", " singlestream "),
    (("util",),
     r"\butil(?:isation|ization|s)?\b", " util "),
    (("vram", "hbm", "mem"),
     r"\bvram\b|\bhbm\b|\bfb mem\w*\b|\bgpu mem(?:ory)?\b|\bmem(?:ory)? (?:on|of) the gpus?\b",
     " gpumem "),
    (("oom", "memory"),
     r"\bout[\s-]of[\s-]memory\b|\boom(?:ed|s|ing)?\b|\bcuda oom\b|\w*outofmemory\w*", " oom "),
    (("mem",),
     r"\bshared[\s-]mem(?:ory)?\b|\bsmem\b", " smem "),
    (("acc_",),
     r"\bacc_\d+\b", " acc "),
    (("why",),
     r"^\s*why (?:did|does|do|was|were|is|are)\b", " why whydid "),
    (("min", "lowest", "requir", "need", "how high", "how big", "how good"),
     r"\b(?:min(?:imum)?|lowest|required|needed)\s+acceptlen\b|\bacceptlen\s+(?:do we |we )?need\b"
     r"|\bhow (?:high|big|good) (?:must|should|does|do|would|has to)\s+(?:the\s+)?acceptlen\b",
     " breakeven acceptlen "),
    (("blew", "blown", "explod"),
     r"\bblew up\b|\bblown up\b|\bexploded\b", " failed "),
    (("%",),
     r"\b\d+\s*%(?! util)", " progress "),
    (("before",),
     r"\b(?:seen|hit|had) (?:this|that|it) before\b|\bhappened before\b", " lesson "),
    (("smi", "nvtop", "nvitop"),
     r"\bnvidia[\s-]smi\b|\bnvitop\b|\bnvtop\b", " gpu "),
    (("gpus", "h100", "h200", "a100", "card", "device"),
     r"\bgpus\b|\bh100s?\b|\bh200s?\b|\ba100s?\b|\bcards?\b|\bdevices?\b", " gpu "),
    (("temp", "hot", "watt", "power", "clock"),
     r"\btemps?\b|\btemperatures?\b|\bhot\b|\bwatts?\b|\bpower draw\b|\bclocks?\b", " gputemp "),
    (("/", "per sec"),
     r"\bstep\s*/\s*s\b|\bit/s\b|\bsteps? per sec(?:ond)?\b", " stepsrate "),
    (("how long", "time", "when"),
     r"\bhow long\b|\btime left\b|\btime remaining\b|\bwhen (?:will|does|is) (?:it|training|the run)"
     r"(?: be)? (?:finish|done|end)\w*", " eta "),
    (("how", "where are we", "status"),
     r"\bhow far\b|\bhow'?s (?:the )?(?:training|run|drafter)\b|\bwhere are we\b|\bstatus\b",
     " progress "),
    (("give", "giving", "sacrific"),
     r"\bgiv(?:e|ing) up\b|\bsacrific\w*", " lose "),
    (("net", "pay", "win", "worth", "on or", "keep", "better off", "hurt", " or "),
     r"\bnet (?:positive|negative|win|loss|gain|effect)\b|\bwin or (?:a )?loss\b|\bpay(?:s|ing)? off\b"
     r"|\bslow(?:er)? or fast(?:er)?\b|\bfast(?:er)? or slow(?:er)?\b|\bwinning\b|\bworth (?:it|turning|enabling|switching|using|keeping)\w*|\bon or off\b"
     r"|\bkeep (?:it|eagle\d?|spec\w*|the drafter) on\b"
     r"|\b(?:turn|switch|leave)(?:ing)? (?:\w+ ){0,2}on or\b|\bbetter off\b"
     r"|\bhelp(?:s|ing)? or hurt(?:s|ing)?\b", " speedup verdict "),
    (("right", "correct", "proper", "wrong", "valid", "reject", "unrecogni", "unknown", "flag for"),
     r"\b(?:right|correct|proper|wrong|valid|real|actual) (?:flag|arg\w*|option|spelling)\b"
     r"|\breject\w*\b|\bunrecogni[sz]ed\b|\bunknown (?:flag|arg\w*|option)\b"
     r"|\b(?:flag|option|arg) (?:for|to set|that sets)\b", " gotcha "),
    (("launch", "torchrun", "deepspeed", "accelerate", "slurm", "nproc", "nnodes", "world", "kick", "start",
      "spun", "how many", "per node", "per host", "per machine"),
     r"\blaunch(?:ed|er|ing)?\b|\bkick(?:ed|ing)? off\b|\bspun up\b|\btorchrun\b|\bdeepspeed\b|\baccelerate launch\b|\bslurm\b"
     r"|\bnproc(?:[\s_-]per[\s_-]node)?\b|\bgpus? per (?:node|host|machine)\b|\bnnodes\b|\bworld[\s_-]size\b"
     r"|\bhow many (?:ranks|nodes|processes|workers)\b"
     r"|\bhow (?:was|were|did we|do we|did you) (?:[\w-]+ ){0,3}(?:start|started|kicked off|spawned)\b",
     " launched "),
    (("down",),
     r"\b(?:took|take|takes|brought|bring|brings|knocked) (?:\w+ ){0,3}?down\b", " killed "),
    (("gpu",),
     r"\bgpu(?=\d)", "gpu "),
    (("whre", "wher", "wehre"),
     r"\b(?:whre|wher|wehre)\b", "where"),
    (("crash", "died", "what step", "which step"),
     r"\b(?:crash(?:ed)?|died|stopped|failed) at\s*[?.!]*\s*$|\bat (?:what|which) step\b|\bwhich step\b",
     " step "),
    (("did", "was", "were"),
     r"\b(?:did|was|were) (?:[\w-]+ ){0,3}(?:run|ran|trained|train|training|job) on\b", " launched run "),
    (("where", "path", "dir", "folder", "locat", "node", "host", "machine", "box", "cluster",
      "server", "disk", "framework", "lib", "repo", "codebase", "toolkit", "stack"),
     r"\bwhere(?=(?:'s|s|'d| did| do| does| is| are| were| was| r| we| they| i)\b.{0,40}\b(?:end(?:ed)? up|live|go|stored"
     r"|saved|written|put|kept|dump\w*)\b)|\bpaths?\b|\bdir(?:ectory)?\b|\bfolder\b|\blocat(?:ion|ed)\b"
     r"|\b(?:which|what) (?:node|host|machine|box|cluster|server)\b|\bon disk\b"
     r"|\bdisk (?:space|usage)\b"
     r"|\b(?:which|what) (?:framework|library|lib|repo|codebase|toolkit|stack)\b", " whereis "),
    (("command", "cmd", "flag", "arg", "cli", "invocation", "how did we", "launch"),
     r"\bcommand(?: ?line)?s?\b|\bcmd(?: ?line)?s?\b|\bflags?\b|\bargs\b|\barguments\b|\bcli\b|\binvocation\b"
     r"|\bhow did we (?:run|start|invoke)\b|\binvoked\b",
     " flags "),
    (("go", "decreas", "dropping", "falling", "improv", "plateau", "converg", "rising", "trend", "looking"),
     r"\bgo(?:ing|es)? down\b|\bdecreas\w*\b|\bdropping\b|\bfalling\b|\bimprov\w*\b|\bplateau\w*\b"
     r"|\bconverg\w*\b|\bgoing up\b|\brising\b|\btrend\w*\b|\blooking\b", " trend "),
    (("compar", "measure"),
     r"\b(?:we|to|you) (?:compare|measure) (?:[\w.-]+ ){0,3}(?:against|to|with)\s*[?.!]*\s*$",
     " baseline "),
    (("vs", "versus", "compare", "against", "relative", "over"),
     r"\bvs\.?\b|\bversus\b|\bcompared? (?:to|with)\b|\bagainst\b|\brelative to\b|\bover\b",
     " vs "),
)
# Patterns below are searched only when the question has a digit (re caches what it compiles).
_CONCURRENCY = (
    r"\b(?:c|conc|concurrency|concurrent|max[- ]concurrency|streams?|users?|clients?)\s*[=:@]?\s*"
    r"(?:of\s*)?(\d+)\b|\b(\d+)[\s-]*(?:concurrent|concurrency|streams?|users|clients|parallel)\b"
    r"|@\s*c?(\d+)\b"
)
_THRESHOLD = r"\b(?:beat|beats|reach|reaches|hit|hits|above|over|than|past|clear|to)\s+(\d+(?:\.\d+)?)"
"""A figure named as a bar to clear (`do we beat 90?`), not a stored result to look up."""
_NOT_THIS = r"\b(?:forget|ignore|skip|not|except|besides|excluding|instead of|rather than|other than)" \
    r"(?: about)?(?: the)? ([\w.-]+)"
"""An engine or model the question sets aside: `forget sglang — vllm c=1 tps?`."""
_BATCH = r"\b(?:bs|batch(?:[\s-]?size)?)\s*[=:]?\s*(?:of\s*)?(\d+)\b"
_ACCEPT_TARGET = (
    r"(?:acceptlen|acc)\s*(?:of|=|reaches|reached|hits|gets to|goes to|at|to|is|was|were"
    r"|becomes?|became|goes up to|rises to|climbs to|improves to)?\s*"
    r"(?:reach(?:es)?|hit(?:s)?|get(?:s)? to)?\s*(\d+(?:\.\d+)?)"
    r"|(\d+(?:\.\d+)?)\s*acceptlen"
)
_METRICS = (  # (metric, words that name it)
    ("prompt_tok_s", ("prefill", "prompt tok", "input throughput")),
    ("ttft_ms", ("ttft", "time to first token")),
    ("itl_ms", (" itl", "inter-token latency", "inter token latency")),
    ("tpot_ms", ("tpot", "time per output token")),
)

# Intent signals: canonical token or word -> weight. A word may count for several intents.
_LEXICON: dict[str, dict[str, float]] = {
    "baseline": {
        "baseline": 3.0, "nospec": 3.5, "reference": 1.5, "beat": 1.5, "vanilla": 2.0,
        "numbers": 1.0, "getting": 0.4, "without": 0.8, "non": 0.5, "autoregressive": 2.0,
        "ar": 1.0, "plain": 1.0, "default": 0.5, "original": 0.6, "floor": 1.0,
    },
    "speedup": {
        "speedup": 3.5, "faster": 2.5, "slower": 2.0, "worse": 1.5, "gain": 2.0, "gains": 2.0, "uplift": 2.5,
        "ratio": 1.5, "breakeven": 3.5, "projected": 2.0, "projection": 2.5,
        "theoretical": 2.5, "calibrated": 2.5, "worth": 1.5, "win": 1.5, "better": 1.0,
        "x": 0.8, "vs": 1.2, "improvement": 1.5, "paying": 1.5, "pay": 1.0, "beating": 1.5,
        "expect": 1.0, "expected": 1.0, "would": 0.8, "if": 0.6, "reaches": 1.0, "hits": 0.8,
        "delta": 1.2, "multiplier": 2.0, "gamma": 1.5, "overhead": 1.5, "helping": 1.0,
        "help": 0.8, "helps": 1.0, "helped": 1.5, "benefit": 1.5, "translate": 1.0, "estimate": 1.0,
        "verdict": 2.0, "enough": 1.0, "clear": 0.6, "crossover": 4.5, "highload": 1.0,
    },
    "run": {
        "training": 2.0, "train": 1.5, "trainer": 1.5, "progress": 3.0, "eta": 3.5, "step": 2.0,
        "steps": 1.8, "epoch": 2.0, "epochs": 2.0, "loss": 2.5, "ploss": 2.5, "lr": 2.0,
        "finish": 2.0, "finished": 1.5, "done": 1.2, "left": 1.0, "remaining": 1.5, "acc": 2.0,
        "accuracy": 2.0, "accuracies": 2.0, "trend": 1.5, "now": 1.0, "live": 1.5,
        "stalled": 2.0, "stall": 2.0, "stuck": 2.0, "alive": 2.0, "running": 1.5, "run": 1.5,
        "checkpoint": 1.0, "stepsrate": 2.5, "grad": 1.5, "norm": 1.0, "converge": 1.5,
        "drafter": 0.6, "ttt": 1.0, "still": 0.8, "far": 1.0, "latest": 0.2, "eval": 2.0,
        "acceptlen": 0.5, "current": 0.5, "job": 1.2, "learning": 1.0, "hang": 0.6,
        "hanging": 0.8, "moving": 1.0,
    },
    "gpu": {
        "gpu": 3.0, "util": 3.0, "gpumem": 3.5, "gputemp": 3.0, "nvml": 3.0, "sm": 1.5,
        "busy": 1.5, "idle": 1.5, "mib": 2.0, "gib": 1.5, "occupancy": 1.5, "throttling": 2.5,
        "throttle": 2.5, "fan": 2.0, "pcie": 2.0, "nvlink": 1.5, "hardware": 1.0, "usage": 1.2,
        "saturated": 1.5, "memory": 0.8, "processes": 1.0, "free": 0.6, "maxed": 1.5,
        "loaded": 0.8, "headroom": 1.2, "power": 2.0, "mem": 1.5,
    },
    "lessons": {
        "lesson": 3.5, "lessons": 3.5, "error": 2.5, "errors": 2.5, "bug": 2.5, "bugs": 2.5,
        "crash": 2.5, "crashed": 2.0, "crashes": 2.5, "oom": 3.0, "fix": 2.5, "fixed": 2.5,
        "fixes": 2.5, "broke": 2.0, "broken": 2.0, "nccl": 3.0, "triton": 2.5, "timeout": 2.5,
        "killed": 2.0, "hang": 1.5, "nan": 2.5, "nans": 2.5, "diverge": 2.5, "diverged": 2.5,
        "wrong": 2.0, "gotcha": 3.0, "gotchas": 3.0, "watchdog": 3.0, "packing": 2.5,
        "segfault": 3.0, "sigsegv": 3.0, "illegal": 2.0, "outofresources": 3.0, "smem": 2.5,
        "shared": 1.5, "issue": 1.5, "issues": 1.5, "problem": 1.5, "problems": 1.5,
        "learned": 2.0, "learnt": 2.0, "workaround": 2.5, "why": 0.8, "failure": 1.5,
        "failures": 1.5, "fail": 1.2, "failed": 1.0, "failing": 1.2, "traceback": 2.5,
        "exception": 2.5, "cause": 1.5, "deadlock": 2.5, "allreduce": 2.0, "cuda": 0.8,
        "avoid": 1.0, "pitfall": 3.0, "pitfalls": 3.0, "mistake": 2.0, "hit": 0.6, "before": 0.6,
        "again": 0.5, "happened": 1.0, "resolve": 1.5, "solved": 1.5, "solve": 1.5, "whydid": 1.5,
        "required": 1.0, "limit": 0.8, "tried": 0.8, "allocate": 1.5, "exceeded": 1.0,
        "die": 1.5, "died": 2.0, "dead": 1.5,
    },
    "benchmarks": {
        "best": 2.5, "fastest": 2.5, "highest": 2.0, "top": 1.5, "lowest": 1.5, "latest": 1.5,
        "last": 1.0, "recent": 1.5, "newest": 1.5, "bench": 2.0, "benchmark": 2.0,
        "benchmarks": 2.5, "benches": 2.5, "result": 1.5, "results": 2.0, "flags": 3.5,
        "config": 1.5, "configs": 2.0, "sweep": 2.0, "measured": 1.0, "measurement": 1.5,
        "failed": 1.2, "fail": 0.8, "tried": 1.0, "record": 0.8, "slowest": 2.0, "worst": 2.0,
        "ttft": 1.5, "itl": 1.5, "tpot": 1.5, "latency": 1.5, "list": 1.0, "all": 0.5,
        "winner": 2.0, "setup": 1.0, "settings": 1.0, "recipe": 0.5, "so": 0.3, "far": 0.3,
        "ran": 1.0, "numbers": 0.6, "throughput": 0.8, "topk": 1.0, "tree": 0.5,
    },
    "search": {
        "note": 3.0, "notes": 3.0, "remind": 0.5, "plan": 2.0, "goal": 2.0, "idea": 2.0,
        "ideas": 2.0, "todo": 2.5, "wrote": 1.5, "decided": 2.0, "decision": 2.0, "why": 0.3,
        "recipe": 3.0, "dataset": 1.0, "data": 0.6, "about": 0.5, "find": 1.0, "search": 2.0,
        "mention": 1.5, "mentioned": 1.5, "said": 1.0, "anything": 0.8, "info": 0.8, "project": 1.5,
        "launched": 2.0, "whereis": 2.5, "node": 1.0, "machine": 1.0, "host": 0.8,
    },
}
_PRIOR = {"search": 0.6}
_FAILED = frozenset(
    "fail failed failing broke broken died crashed crash errored error errors erroring".split())
_COMPARATIVE = frozenset(
    "speedup faster slower better worse beating beat gain gains x vs uplift ratio breakeven".split())
_PLAIN = frozenset(
    "speed fast decode decoding model models draft number time times seeing eval drafter kimi "
    "going doing long much lose losing lost cost costs costing hurt hurts wheres whats hows whos "
    "gimme lemme until till unless start started starting flip flips".split())
"""Ordinary words that are never typos of a lexicon word (`speed` is not `speedup`)."""
_STOPWORDS = frozenset(
    "a an and are as at be been being but by can could did do does doing for from get got had has "
    "have how i if in into is it its it's just let me my of off on or our out please remind show "
    "so tell than that the their them then there these they this those to up us was we were what "
    "what's whats when where which while who whom whose will with would you your yet any some "
    "again ok okay hey hi quick quickly q question pls plz thanks kinda sorta really like also "
    "one ones currently use used using give gave much many more most about over under vs x "
    "there's here's thing things stuff today yesterday week day should know need want known "
    "again last time".split()
)


class AskedConditions(NamedTuple):
    """What the question itself says about the comparison it wants: the conditions it names (a
    `reference.Conditions`, unnamed ones None), and whether it asks without the feature or at
    an accept length."""

    comparison: Conditions = Conditions()
    no_feature: bool = False  # "w/o eagle3", "no spec": the baseline is asked for
    accept_length: float | None = None  # "if accept length reaches 3"

    @property
    def named(self) -> bool:
        """Whether the question names any condition of a comparison."""
        c = self.comparison
        return any(v is not None for v in (c.concurrency, c.batch_size, c.engine, c.model))


class Understanding(NamedTuple):
    """The intent of a question, how sure we are, the runner-ups and the conditions it names."""

    intent: str
    confidence: float
    scores: dict[str, float]
    conditions: AskedConditions
    words: list[str]

    @property
    def alternatives(self) -> list[tuple[str, float]]:
        """Other intents with a score, best first."""
        ranked = sorted(self.scores.items(), key=lambda item: -item[1])
        return [(name, score) for name, score in ranked if name != self.intent and score > 0]

    def confidence_of(self, intent: str) -> float:
        """How sure we would be of `intent`, on the scale of `confidence` (0..1): its lead over
        the best other intent, and its own strength."""
        others = [score for name, score in self.scores.items() if name != intent]
        return _confidence(self.scores.get(intent, 0.0), max(max(others, default=0.0), 0.0))

    @property
    def unsure(self) -> bool:
        """Whether the runner-up deserves to be shown next to the best guess."""
        return self.confidence < UNSURE_BELOW and bool(self.alternatives)


class Vocabulary(NamedTuple):
    """Names the memory itself holds, each pointing to the intent it suggests."""

    words: dict[str, str]
    engines: frozenset[str]
    models: dict[str, str]  # a word of a model -> the model
    values: frozenset[str] = frozenset()  # stored benchmark values, as `82.3` or `1450`

    @classmethod
    def of(cls, records: Iterable[Record]) -> Vocabulary:
        """Vocabulary from stored records: engines, models, lesson titles, run names."""
        words: dict[str, str] = {}
        engines = set(ENGINES)
        models: dict[str, str] = {}
        values: set[str] = set()
        shared: set[str] = set()  # words of benchmark configs: a run's name sharing one is no hint
        for record in records:
            if record.kind == "note":
                for word in _tokens(f"{record.text or ''} {' '.join(record.tags)}"):
                    if len(word) >= 5:
                        _point(words, word, "search")
            elif record.kind == "lesson":
                text = f"{record.title or ''} {record.cause or ''} {record.fix or ''}"
                for word in _tokens(f"{text} {' '.join(record.tags)}"):
                    if len(word) >= 4:
                        _point(words, word, "lessons")
            elif record.kind == "run":
                name = record.name or ""
                for word in {*_tokens(name), *re.split(r"[-_. ]", name.lower())}:
                    _point(words, word, "run")
            elif record.kind == "benchmark":
                shared.update(_tokens(f"{record.config or ''} {record.spec_algorithm or ''}"))
                if record.value is not None:
                    values.add(value_key(record.value))
                if record.engine:
                    engines.add(record.engine.lower())
                if record.model:
                    for word in _model_words(record.model):
                        models.setdefault(word, record.model)
        for word in list(words):
            if not words[word] or (words[word] == "run" and word in shared):  # two kinds: no hint
                del words[word]
                continue
            short = len(word) < 3 and not (words[word] == "run" and re.fullmatch(r"[a-z]\d", word))
            if word in _STOPWORDS or short or word.isdigit() or _lexicon_weight(word) \
                    or word in engines:
                del words[word]
        return cls(words, frozenset(engines), models, frozenset(values))


def value_key(value: float) -> str:
    """A figure as people type it: `82.3`, `1450`."""
    return f"{value:g}"


def figures_in(words: Iterable[str]) -> list[float]:
    """The figures a question names (`1450`, `82.3`), for reverse lookups by value."""
    return [float(w) for w in words if re.fullmatch(r"\d{2,}(?:\.\d+)?|\d+\.\d+", w)]


def _point(words: dict[str, str], word: str, intent: str) -> None:
    """Point a word at an intent; a word already pointing at another points at none."""
    words[word] = intent if words.get(word, intent) == intent else ""


EMPTY_VOCABULARY = Vocabulary({}, frozenset(ENGINES), {})


def _tokens(text: str) -> list[str]:
    """Lower-case words; keeps `eagle3`, `k2.5`, `llama-3.1-8b` whole."""
    return re.findall(r"[a-z0-9]+(?:[.\-_][a-z0-9]+)*", text.lower())


def _model_words(model: str) -> set[str]:
    """Distinctive words of a model name: `moonshotai/Kimi-K2.5` gives kimi, k2.5, kimi-k2.5."""
    name = model.lower().rsplit("/", 1)[-1]
    parts = set(re.split(r"[-_/ ]", name)) | {name}
    return {p for p in parts if len(p) >= 3 and not p.isdigit() and p not in {"instruct", "chat"}}


def _lexicon_weight(word: str) -> float:
    return max((weights.get(word, 0.0) for weights in _LEXICON.values()), default=0.0)


_KNOWN = frozenset(w for weights in _LEXICON.values() for w in weights)
_CANONICAL = frozenset(
    "without with nospec speedup breakeven baseline acceptlen spec throughput perf now "
    "singlestream util gpumem oom smem whydid gpu gputemp stepsrate eta progress flags trend vs "
    "verdict gotcha launched whereis".split()
)
_BENCH_OBJECTS = frozenset(
    "bench benchmark benchmarks benches baseline server result results number numbers".split())
_LOSE = frozenset("lose losing lost loss cost costs costing drop penalty hit hurt".split())
_SPEC_WORDS = frozenset("spec eagle eagle2 eagle3 drafter draft mtp medusa".split())
_DIED = frozenset("crash crashed crashes died die dead killed oom".split())
_PROJECTING = frozenset("projected projection calibrated theoretical expected would".split())
"""Words that turn an accept length into the speedup it would give."""
_RUN_OBJECTS = frozenset("training train trained run job drafter trainer".split())


def asks_command(words: Iterable[str]) -> bool:
    """Whether a question asks how a benchmark was run: its command or flags."""
    present = set(words)
    how_run = bool(present & {"launched", "gpu"}) and bool(present & {"did", "was", "were"} or
                                                        "launched" in present)
    return "flags" in present or (how_run and bool(present & _BENCH_OBJECTS))


def is_intent_word(word: str) -> bool:
    """A question word or a word of the domain lexicon: it says what is asked, not about what."""
    return word in _STOPWORDS or word in _KNOWN or word in _CANONICAL or word in _PLAIN


def needs_vocabulary(question: str) -> bool:
    """Whether the question has a word the lexicon does not know, which the memory might."""
    words = _tokens(normalise(question))
    return any((len(w) > 2 or bool(re.fullmatch(r"[a-z]\d", w)))
               and not (is_intent_word(w) or w in ENGINES or w.isdigit()) for w in words) \
        or bool(_VALUE.search(question))


_VALUE = re.compile(r"(?<![\w.=@])(\d{2,}(?:\.\d+)?|\d+\.\d+)(?![\w.%x])")
"""A figure in a question (`1450`, `82.3`): maybe a stored result's value, looked up in reverse."""


def normalise(question: str) -> str:
    """The question lower-cased, with abbreviations and jargon rewritten to canonical tokens."""
    text = " " + question.lower().replace("’", "'") + " "
    for needed, pattern, canonical in _PHRASES:
        if any(word in text for word in needed):
            text = re.sub(pattern, canonical, text)
    return re.sub(r"\s+", " ", text).strip()


def _typo_of(word: str, targets: Sequence[str]) -> str | None:
    """The lexicon word `word` is a typo of: same first letter, at most one edit (a swap counts
    as one) for short words and two for long ones; None when nothing is that close."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    limit = 1 if len(word) <= 6 else 2
    same_start = [t for t in targets if t[0] == word[0] and abs(len(t) - len(word)) <= limit]
    match = process.extractOne(word, same_start, scorer=OSA.distance, score_cutoff=limit)
    if match is None:
        return None
    target = match[0]
    if target.startswith(word) and len(target) - len(word) >= 2:
        return None  # a shorter form (`speed`, `eagle`), not a typo of the longer word
    return target


def _fuzzy_words(words: Sequence[str], vocabulary: Vocabulary) -> list[str]:
    """Unknown words replaced by the lexicon word they are a typo of (rapidfuzz, loaded lazily)."""
    known = _KNOWN | _CANONICAL | _STOPWORDS | _PLAIN | set(vocabulary.words) | vocabulary.engines
    unknown = [w for w in words if w not in known and len(w) >= 4 and w.isalpha()]
    if not unknown:
        return list(words)
    targets = sorted(_KNOWN | _TYPO_TARGETS | set(vocabulary.words))
    fixed = {word: normalise(typo) for word in unknown if (typo := _typo_of(word, targets))}
    return [fixed.get(w, w) for w in words]


def conditions_of(text: str, vocabulary: Vocabulary) -> AskedConditions:
    """The metric, concurrency, batch size, engine, model and feature negation a question names."""
    padded = f" {text} "
    metric = next((name for name, words in _METRICS if any(w in padded for w in words)),
                  DEFAULT_METRIC)
    concurrency = batch = None
    digits = any(ch.isdigit() for ch in text)
    if "singlestream" in text.split():
        concurrency = 1
    elif digits and (match := re.search(_CONCURRENCY, text)):
        concurrency = int(next(g for g in match.groups() if g))
    if digits and (found := re.search(_BATCH, text)) and int(found.group(1)) > 0:
        batch = int(found.group(1))
    words = set(text.split()) - set(re.findall(_NOT_THIS, text))
    engine = next((e for e in sorted(vocabulary.engines) if e in words or e.replace(".", "") in words),
                  None)
    model = next((vocabulary.models[w] for w in _tokens(text) if w in vocabulary.models), None)
    no_feature = "nospec" in words or (("without" in words or "before" in words) and bool(re.search(
        r"\b(?:without|before)(?: we (?:added|used|enabled|turned on|tried))? (?:the |any |a )?"
        r"(?:spec|eagle\w*|drafter|draft\w*|mtp|medusa|lookahead|ngram|speculat\w*)\b"
        r"(?! (?:wins?|beats?|pays?|helps?|is|becomes|gets|starts|breaks|can|will|would)\b)", text)))
    target = re.search(_ACCEPT_TARGET, text) if digits else None
    accept = None
    if target:
        value = float(next(g for g in target.groups() if g))
        accept = value if 1.0 <= value <= 16 else None
    return AskedConditions(Conditions(metric, concurrency, batch, model, engine), no_feature, accept)


def _score(words: Sequence[str], text: str, asked: AskedConditions, vocabulary: Vocabulary
           ) -> dict[str, float]:
    """Points per intent from the lexicon, the memory's vocabulary and the named conditions."""
    scores = dict.fromkeys(INTENTS, 0.0)
    for name, prior in _PRIOR.items():
        scores[name] += prior
    for word in words:
        for intent, weights in _LEXICON.items():
            scores[intent] += weights.get(word, 0.0)
        if word in vocabulary.words:
            scores[vocabulary.words[word]] += 1.5
    present = set(words)
    thresholds = {value_key(float(n)) for n in re.findall(_THRESHOLD, text)}
    if asked.accept_length is None and any(
            value_key(v) in vocabulary.values - thresholds for v in figures_in(words)):
        scores["benchmarks"] += 9.0 if asked.no_feature else 1.5 if present & _COMPARATIVE \
            else 5.0  # a stored value: its source, unless figures are being compared
    _combinations(scores, present, text, asked)
    if present & {"launched", "flags", "whereis"} and not present & _BENCH_OBJECTS and any(
            vocabulary.words.get(word) == "run" for word in present):
        scores["search"] += 3.0  # how a named run was launched, where its files went: the notes
        scores["benchmarks"] -= 2.0
    return scores


def _combinations(scores: dict[str, float], present: set[str], text: str, asked: AskedConditions
                  ) -> None:
    """Signals that only mean something together (negations, live figures, failed benches)."""
    compared = present & _COMPARATIVE
    if asked.no_feature:
        scores["baseline"] += 1.0 if compared else 4.0
        scores["speedup"] -= 0.0 if compared else 2.0
    if compared and present & {"baseline", "nospec"}:
        scores["speedup"] += 3.0
    if present & _SPEC_WORDS and present & {"beat", "beats", "beaten", "outperform", "outperforms"}:
        scores["speedup"] += 2.5  # whether the feature beats something: its speedup
    if present & {"every", "all", "list", "each"} and present & {
            "result", "results", "bench", "benches", "benchmark", "benchmarks"}:
        scores["benchmarks"] += 2.5  # a list of results
    if "nospec" in present and present & (_SPEC_WORDS | {"spec"}):
        scores["speedup"] += 2.5  # the feature and its absence named together: a comparison
    if present & {"expect", "expected", "would", "projected"} and present & {
            "throughput", "perf", "speedup", "faster"}:
        scores["speedup"] += 2.0
    if present & {"acceptlen", "acc", "accuracy"} and present & {"throughput", "speedup"}:
        scores["speedup"] += 2.5  # what an accept length (or accuracy) means in tok/s
    if "acceptlen" in present:
        if asked.accept_length is not None or present & {"breakeven", "throughput", "speedup"} \
                or present & _PROJECTING:
            scores["speedup"] += 3.0
        elif present & {"now", "current", "live", "trend", "training", "drafter", "step", "run"}:
            scores["run"] += 2.5
        else:
            scores["run"] += 1.0
            scores["benchmarks"] += 0.8
    if asked.accept_length is not None and present & {"throughput", "speedup", "perf", "if", "what"}:
        scores["speedup"] += 2.0
    if present & _FAILED and present & {
            "bench", "benchmark", "benches", "benchmarks", "result", "measurement", "config",
            "one", "which"}:
        scores["benchmarks"] += 3.0
    if present & {"whereis", "launched"} and present & _RUN_OBJECTS and not present & _BENCH_OBJECTS:
        scores["search"] += 3.0  # where a run's files went, how it was launched: the notes
    if "gpu" in present and present & {"did", "was", "were"} and present & _BENCH_OBJECTS:
        scores["benchmarks"] += 3.5  # how a past benchmark was run: its command and notes
        scores["gpu"] -= 1.5
    if "gpu" in present and present & {"did", "was", "were"} and present & _RUN_OBJECTS:
        scores["search"] += 3.0  # how a past job was run: in the notes, not the GPUs now
        scores["gpu"] -= 1.5
    if "launched" in present and present & _BENCH_OBJECTS:
        scores["benchmarks"] += 4.0  # how a benchmark was launched: its command
    if asks_crossover(present, asked):
        scores["speedup"] += 4.0  # where the gain ends: the sweep's crossover
    if present & {"help", "helps", "helped", "helping"} and present & _SPEC_WORDS:
        scores["speedup"] += 2.5  # whether the feature helped: its measured speedup
    lost = present & _LOSE
    if lost and (present & {"throughput", "speedup", "nospec", "perf"}
                 or (lost - {"loss"} and present & _SPEC_WORDS)):
        scores["speedup"] += 4.0  # tok/s lost to speculation, not the training loss
        scores["run"] -= 3.0
    if present & _RUN_OBJECTS and present & {"ok", "okay", "healthy", "fine", "sane", "nan", "nans"} \
            and not present & {"why", "whydid", "fix", "fixed", "lesson", "before"}:
        scores["run"] += 2.0  # is the run healthy: its live state, not the lessons
    if asked.accept_length is not None and present & {"will", "forecast", "trajectory"} and present & (
            _RUN_OBJECTS | {"end", "ends", "finish", "finishes", "done"}) \
            and not present & {"throughput", "speedup", "perf"}:
        scores["run"] += 5.0  # will the run reach an accept length: its forecast
        scores["speedup"] -= 3.0
    if present & _DIED and "step" in present and present & _RUN_OBJECTS \
            and not present & {"why", "whydid", "cause", "fix"}:
        scores["run"] += 3.0  # where a run died: its record, not the lesson
    if present & _DIED and present & _RUN_OBJECTS:
        scores["lessons"] += 2.5  # why a run died: the crashed run, then its lesson
    if asked.accept_length is not None and "baseline" in present:
        scores["speedup"] += 3.0  # a what-if against the number to beat
    if "gotcha" in present:
        scores["benchmarks"] -= 3.5 if "flags" in present else 0.0
    if "flags" in present:
        scores["benchmarks"] += 2.0
        scores["baseline"] -= 2.0 if "baseline" in present else 0.0
    if present & {"best", "fastest", "highest", "top", "winner", "lowest"} and present & {
            "config", "configs", "result", "results", "bench", "benchmark", "so", "setup",
            "throughput", "run", "number", "numbers", "far", "yet", "ever"}:
        scores["benchmarks"] += 2.5
    if "gpu" in present:  # the GPUs named: their state, unless a failure is asked about
        scores["gpu"] += -2.0 if present & {"oom", "error", "crash", "lesson"} else 1.0
    if present & {"memory", "mem"} and present & {"used", "free", "usage", "much", "full", "left"} \
            and "oom" not in present:
        scores["gpu"] += 2.0
    if present & {"goal", "plan", "aim", "objective", "purpose", "achieve", "decided", "decision"}:
        scores["search"] += 2.0
    if present & {"bug", "bugs", "issue", "issues", "gotcha", "wrong", "broken", "problem", "problems"}:
        scores["lessons"] += 1.5
    if present & {"loss", "acc", "accuracy", "lr"} and present & {"trend", "now", "current"}:
        scores["run"] += 1.5
    if "baseline" in present and present & {"speedup", "faster", "slower", "x", "beating", "vs"}:
        scores["speedup"] += 1.0
    if present & {"throughput", "perf", "numbers"} and present & {"now", "current"} and \
            "speedup" not in present and not asked.no_feature:
        scores["speedup"] += 1.0
    if asked.named and not asked.no_feature and present & {"throughput", "perf", "numbers", "number"}:
        scores["baseline"] += 0.5
        if not present & (_COMPARATIVE | {"best", "latest", "fastest", "now", "acceptlen"}):
            scores["baseline"] += 1.5  # `vllm c=1 tps?`: the number under those conditions
    if "acceptlen" in present and present & {"acc", "accuracy"} and present & {
            "low", "lower", "worse", "poor", "bad", "high", "higher", "why", "whydid", "but", "yet",
            "despite", "though", "although", "whereas", "while"}:
        scores["lessons"] += 4.5  # a measured accept length off the training accuracy: a gotcha
        scores["run"] -= 3.0
    if present & {"why", "whydid"} and present & {"but", "yet", "despite", "though", "although",
                                                 "whereas", "when", "while"}:
        scores["lessons"] += 2.5  # good here, bad there: a known gotcha, not a status
        scores["run"] -= 2.0
        if present & {"high", "great", "good", "fine"} and present & {"low", "bad", "poor", "worse"}:
            scores["lessons"] += 1.5
    quiet = max(score for name, score in scores.items() if name != "search") < 1.0
    if quiet and asked.comparison.engine and asked.named and not present & _COMPARATIVE:
        scores["baseline"] += 2.0  # `what does vllm do at c=1`: nothing else asked


_PAYS = _COMPARATIVE | frozenset(
    "win wins winning ahead help helps helping pay pays paying worth verdict better".split())


def asks_crossover(words: Iterable[str], asked: AskedConditions) -> bool:
    """Whether a question asks where the feature stops paying as concurrency grows: a crossover
    named, or a gain asked about under load (`does eagle3 still win at c=64`)."""
    present = set(words)
    if "crossover" in present:
        return True
    under_load = "highload" in present or (
        bool(present & {"still", "keep", "keeps", "continue", "continues"})
        and (asked.comparison.concurrency or 0) > 1)
    return under_load and bool(present & _PAYS)


def understand(question: str, vocabulary: Vocabulary | None = None) -> Understanding:
    """Score every intent for a question and return the best, with confidence and conditions."""
    vocabulary = vocabulary or EMPTY_VOCABULARY
    typed = normalise(question)
    words = _fuzzy_words(_tokens(typed), vocabulary)
    text = normalise(" ".join(words))
    words = _tokens(text)
    asked = conditions_of(f"{typed} {text}", vocabulary)
    scores = _score(words, text, asked, vocabulary)
    ranked = sorted(INTENTS, key=lambda name: (-scores[name], INTENTS.index(name)))
    top, second = scores[ranked[0]], max(scores[ranked[1]], 0.0)
    return Understanding(ranked[0], _confidence(top, second),
                         {k: round(v, 2) for k, v in scores.items()}, asked, words)


def _confidence(score: float, best_other: float) -> float:
    """0..1: half the lead over the best other intent (scaled by strength), half the strength."""
    if score <= 0:
        return 0.0
    lead = max(0.0, score - best_other) / score * min(1.0, score / 3.0)
    return round(max(0.0, min(1.0, lead * 0.5 + min(1.0, score / 6.0) * 0.5)), 3)


def comparison_conditions(asked: AskedConditions, metric: str, results: Sequence[Record]
                     ) -> tuple[Conditions, str]:
    """The conditions the question names, else the latest feature result's, else single stream."""
    named = asked.comparison._replace(metric=metric)
    if named.concurrency is not None or named.batch_size is not None:
        return named, f"conditions asked: {named.text()}"
    conditions, why = default_conditions(results, metric)
    conditions = conditions._replace(engine=named.engine, model=named.model or conditions.model)
    return conditions, why
