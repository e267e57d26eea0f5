"""Train the tile reader: one model that reads a square's crop beside its board's reference crop.

    python -m tilecam.models.reader_train --out models/ --boards 1500 --epochs 6 --real-photos DIR … \
        --tile-crops DIR … --seed 1

On two CPU threads, as here; ``--device cuda`` where a GPU is lent. The model has two inputs (``crops`` and
``references``, see ``tilecam.vision.context``) and two outputs: ``logits`` and an ``embedding`` (the features
before the last layer, which the reader adapts to a user's board with). After training, a temperature is fitted on held-back real
boards (every ``CALIBRATION_EVERY``-th board of each real folder, and ``--calibrate-on`` folders: never trained on)
so that the probabilities mean what they say; the reader applies it in one place (``TileClassifier.calibrated``).
``--hold-out NAME`` leaves a real folder out of training entirely (the board-disjoint figure of record).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from tilecam.models.distill import DISTILL_WEIGHT, distill_loss, soft_targets, teacher_from_onnx
from tilecam.models.dataset import CLASS_INDEX, CLASSES, LATER_LETTERS
from tilecam.models.reader_data import (EMPTY, MIN_LABEL_FIT, Examples, describe, label_turn, located_boards,
                                        labelled_letters_turn, real_examples, synthetic_examples, tile_crop_examples)
from tilecam.models.erased import blanks_from_letters
from tilecam.models.recoloured import blanks_from_bare
from tilecam.models.prints import print_bank, stamp
from tilecam.vision.warp import CROP_PX

#: Channels of the four blocks, as the crops-only model it grew from (``--init``): about 5.7 M multiply-adds a
#: square.
WIDTHS = (16, 32, 64, 96)
#: Each class is drawn at least this share of its letters' mean in a batch (rare letters seen often enough) …
RARE_FLOOR = 0.5
#: … and bare squares at most this share of all draws: they are most of a board but the easiest to learn.
EMPTY_CAP = 0.3
#: Of each real folder trained on, every this-many-th board is held back to fit the calibration on (boards of every
#: design, never trained on: a temperature fitted on one board's photos fits that board).
CALIBRATION_EVERY = 6
#: Share of the training crops blurred (out of focus or far away), crop and reference alike; ``--sharpen`` draws its
#: share among the rest.
BLUR_SHARE = 0.33
#: The seed stream (``default_rng([seed, PRINT_STREAM])``) the premium prints of ``--prints`` are drawn from: their
#: own, so that every other draw of a training stays what it was.
PRINT_STREAM = 7
#: The seed stream the lettered tiles copied as blanks (``--blanks``, ``models.erased``) are drawn from.
BLANK_STREAM = 8
#: The seed stream the bare squares copied as blanks of another colour (``--recoloured``) are drawn from.
RECOLOUR_STREAM = 9


def build_model(widths: tuple[int, int, int, int] = WIDTHS):
    import torch
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    a, b, c, d = widths

    class Reader(nn.Module):
        """Crop and reference side by side as six channels; features → embedding → logits."""

        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                *block(6, a), nn.MaxPool2d(2),        # 40 -> 20
                *block(a, b), nn.MaxPool2d(2),        # 20 -> 10
                *block(b, c), nn.MaxPool2d(2),        # 10 -> 5
                *block(c, d), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(d, len(CLASSES)))

        def forward(self, crops, references):
            embedding = self.features(torch.cat([crops, references], dim=1))
            return self.head(embedding), embedding

    return Reader()


def init_from_crops_model(model, path: Path, sample: np.ndarray) -> None:
    """Start the reader from a model of crops alone (``crops_model``'s, same widths): its layers as they
    are, the reference's input channels at zero, so the reader starts out reading as that model did and learns
    from there what the reference adds. The last layer's rows are taken by class name (``crops_model.
    init_from_onnx``): m23's 32 classes start theirs, the letters added since start fresh."""
    import torch

    from tilecam.models.crops_model import build_crops_model, init_from_onnx

    old = build_crops_model("standard")
    old[-1].load_state_dict(model.head[-1].state_dict())     # the rows of classes the file lacks: the reader's own
    init_from_onnx(old, path, sample)
    mine = [m for m in list(model.features) + list(model.head) if any(True for _ in m.parameters(recurse=False))
            or isinstance(m, torch.nn.BatchNorm2d)]
    theirs = [m for m in old if any(True for _ in m.parameters(recurse=False)) or isinstance(m, torch.nn.BatchNorm2d)]
    with torch.no_grad():
        for a, b in zip(mine, theirs):
            if isinstance(a, torch.nn.Conv2d) and a.weight.shape[1] != b.weight.shape[1]:
                a.weight.zero_()
                a.weight[:, :b.weight.shape[1]] = b.weight
            else:
                a.load_state_dict(b.state_dict())


def to_float(crops: np.ndarray):
    """BGR uint8 (N, S, S, 3) → RGB float NCHW 0..1 tensor."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2)[:, ::-1])).float() / 255.0


def augment(x, r, g, sharpen: float = 0.0, bare=None, prints=None, print_share: float = 0.0, shade: float = 0.0,
            glare: float = 0.0):
    """Premium prints no render draws (``prints.stamp``: a ``print_share`` of the squares, ``bare`` saying which
    have nothing on them, from the bank ``prints``), then the same light for a crop and its reference (brightness,
    contrast, colour cast, channel order, negative, grey), a little of it apart (the reference comes from elsewhere
    on the board), a shadow's edge over a ``shade`` share of the crops alone and a glare over a ``glare`` share,
    then blur, noise and a shift of the crop alone. Float NCHW 0..1 on the generator ``g``'s device, all draws from
    ``g``."""
    import torch
    import torch.nn.functional as F

    n, on = x.shape[0], x.device
    if print_share:
        x, r = stamp(x, r, bare, prints, print_share, g)

    def rand(*shape):
        return torch.rand(*shape, generator=g, device=on)

    both = torch.cat([x, r], 0)
    gain = (1 + 0.5 * (rand(n, 1, 1, 1) - 0.5)).repeat(2, 1, 1, 1)
    cast = (1 + 0.25 * (rand(n, 3, 1, 1) - 0.5)).repeat(2, 1, 1, 1)
    apart = 1 + 0.08 * (rand(2 * n, 1, 1, 1) - 0.5)
    contrast = (1 + 0.5 * (rand(n, 1, 1, 1) - 0.5)).repeat(2, 1, 1, 1)
    mean = both.mean(dim=(1, 2, 3), keepdim=True)
    both = ((both - mean) * contrast + mean) * gain * cast * apart
    x, r = both[:n], both[n:]
    # Board and tile colours the renders lack: channels reordered (a yellow board turned teal, ivory tiles pink),
    # the negative (light letters on dark tiles), grey — always to crop and reference alike.
    perm = torch.randperm(3, generator=g, device=on)
    pick = (rand(n, 1, 1, 1) < 0.3).float()
    x, r = pick * x[:, perm] + (1 - pick) * x, pick * r[:, perm] + (1 - pick) * r
    neg = (rand(n, 1, 1, 1) < 0.15).float()
    x, r = neg * (1 - x) + (1 - neg) * x, neg * (1 - r) + (1 - neg) * r
    grey = (rand(n, 1, 1, 1) < 0.1).float()
    x = grey * x.mean(1, keepdim=True).expand_as(x) + (1 - grey) * x
    r = grey * r.mean(1, keepdim=True).expand_as(r) + (1 - grey) * r
    if shade or glare:      # the crop's pixels from -1 to 1 across, for a shadow's edge and a glare's spot
        yy, xx = torch.meshgrid(torch.linspace(-1, 1, x.shape[2], device=on),
                                torch.linspace(-1, 1, x.shape[3], device=on), indexing="ij")
    if shade:
        # A shadow (a player leaning over, a lamp's edge) or a pool of light over part of the board: the crop alone
        # darker or brighter across a soft edge, its reference (from the board's other squares) lit as before.
        # What lies on the square is what it was: a shadow is not a hand, nor a tile.
        shaded = torch.nonzero(rand(n) < shade).flatten()
        if len(shaded):
            k = len(shaded)
            angle = 2 * torch.pi * rand(k, 1, 1)
            across = xx[None] * torch.cos(angle) + yy[None] * torch.sin(angle) - (2.6 * rand(k, 1, 1) - 1.3)
            ramp = torch.sigmoid(across / (0.05 + 0.3 * rand(k, 1, 1)))
            depth = 0.2 + 0.45 * rand(k, 1, 1)
            depth = torch.where(rand(k, 1, 1) < 0.25, -0.6 * depth, depth)     # a quarter brighter, not darker
            x[shaded] = x[shaded] * (1 - depth * ramp)[:, None]
    if glare:
        # Glare: light reflected off a glossy board or tile washes part of the crop towards white (not its
        # reference, from squares elsewhere): a bright spot is not a hand either.
        lit = torch.nonzero(rand(n) < glare).flatten()
        if len(lit):
            k = len(lit)
            cy, cx = 3 * rand(k, 1, 1) - 1.5, 3 * rand(k, 1, 1) - 1.5
            spread = 0.5 + 1.5 * rand(k, 1, 1)
            wash = (0.3 + 0.65 * rand(k, 1, 1)) * torch.exp(-((yy[None] - cy) ** 2 + (xx[None] - cx) ** 2)
                                                            / (2 * spread ** 2))
            x[lit] = x[lit] + (1 - x[lit]) * wash[:, None]
    # Out of focus or far away: a blur on a third of the crops, the reference blurred alike (same camera).
    sigma = 0.5 + 1.0 * rand(1)
    t = torch.arange(-2, 3, dtype=torch.float32, device=on)
    k1 = torch.exp(-t ** 2 / (2 * sigma ** 2))
    kernel = (k1[:, None] * k1[None, :] / k1.sum() ** 2).expand(3, 1, 5, 5)
    blur = torch.nonzero(rand(n) < BLUR_SHARE).flatten()
    if len(blur):
        pair = torch.cat([x[blur], r[blur]], 0)
        pair = F.conv2d(F.pad(pair, (2, 2, 2, 2), mode="replicate"), kernel, groups=3)
        x[blur], r[blur] = pair[:len(blur)], pair[len(blur):]
    if sharpen:
        # Crisper than the renders: a photo of many pixels a square cut down to the crop keeps every edge and the
        # wood's grain; an unsharp mask on a ``sharpen`` share of the others, crop and reference alike.
        others = ~torch.isin(torch.arange(n, device=on), blur)
        crisp = torch.nonzero((rand(n) < sharpen / (1 - BLUR_SHARE)) & others).flatten()
        if len(crisp):
            amount = (0.5 + rand(len(crisp), 1, 1, 1)).repeat(2, 1, 1, 1)
            pair = torch.cat([x[crisp], r[crisp]], 0)
            soft = F.conv2d(F.pad(pair, (2, 2, 2, 2), mode="replicate"), kernel, groups=3)
            pair = pair + amount * (pair - soft)
            x[crisp], r[crisp] = pair[:len(crisp)], pair[len(crisp):]
    # A tile off its square's middle, or a grid found a pixel or two off: the crop moved, the batch at once.
    dx, dy = torch.randint(-3, 4, (2,), generator=g, device=on).tolist()
    x = F.pad(x, (3, 3, 3, 3), mode="replicate")[:, :, 3 + dy:3 + dy + x.shape[2], 3 + dx:3 + dx + x.shape[3]]
    x = x + 0.03 * rand(1) * torch.randn(x.shape, generator=g, device=on)
    return x.clamp(0, 1), r.clamp(0, 1)


def softened(data: Examples, sigma: float, chunk: int = 4096) -> Examples:
    """``data`` with every crop and reference blurred as the reader will blur them (``classify.soften``)."""
    from tilecam.vision.classify import soften

    def each(a):
        return np.concatenate([soften(a[i:i + chunk], sigma) for i in range(0, len(a), chunk)]) if len(a) else a

    return Examples(each(data.x), each(data.ref), data.y, data.board)


def draw_weights(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-example draw weights and the class shares they give: rare letters raised to ``RARE_FLOOR`` of the
    letters' mean count, bare squares capped at ``EMPTY_CAP`` of the draws."""
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    target = counts.copy()
    letters = np.array([len(c) == 1 and c.isalpha() for c in CLASSES]) & (counts > 0)
    target[letters] = np.maximum(counts[letters], RARE_FLOOR * counts[letters].mean())
    others = target.sum() - target[EMPTY]
    target[EMPTY] = min(target[EMPTY], EMPTY_CAP / (1 - EMPTY_CAP) * others)
    per_class = np.divide(target, counts, out=np.zeros_like(target), where=counts > 0)
    w = per_class[y]
    return w / w.sum(), target / target.sum()


def train(data: Examples, epochs: float, seed: int, lr: float = 3e-3, batch: int = 256, device: str = "cpu",
          init: Path | None = None, widths: tuple[int, int, int, int] = WIDTHS, teachers: list[Path] = (),
          sharpen: float = 0.0, prints: float = 0.0, shade: float = 0.0, glare: float = 0.0):
    """Train ``build_model(widths)`` for ``epochs`` passes (cosine decay) on ``device`` (the batches are drawn
    and lit there too), progress printed; the model is returned on the CPU. With ``teachers`` (exported readers)
    their softened probabilities are a second target (``distill``). ``prints``: the share of squares given a premium
    print no render draws, ``shade`` the share of crops under a shadow's edge their reference is not, ``glare``
    under a glare (``augment``)."""
    import torch
    import torch.nn as nn

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    g = torch.Generator(device=device).manual_seed(seed)
    model = build_model(widths)
    if init is not None:
        sample = np.random.default_rng(seed).choice(len(data), min(4096, len(data)), replace=False)
        init_from_crops_model(model, init, data.x[np.sort(sample)])
    model = model.to(device)
    teaching = [teacher_from_onnx(t).to(device) for t in teachers]
    weights, _ = draw_weights(data.y)
    steps = max(1, int(epochs * len(data) / batch))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss()
    bank = None
    if prints:
        colours, covers = print_bank(np.random.default_rng([seed, PRINT_STREAM]))
        bank = (torch.from_numpy(colours).to(device), torch.from_numpy(covers).to(device))
    rng = np.random.default_rng(seed)
    start, seen, loss_sum, correct = time.monotonic(), 0, 0.0, 0
    model.train()
    for step in range(steps):
        idx = rng.choice(len(data), batch, p=weights)
        yb = torch.from_numpy(data.y[idx]).to(device)
        xb, rb = augment(to_float(data.x[idx]).to(device), to_float(data.ref[idx]).to(device), g, sharpen,
                         yb == EMPTY, bank, prints, shade, glare)
        out, _ = model(xb, rb)
        loss = loss_fn(out, yb)
        if teaching:
            loss = (1 - DISTILL_WEIGHT) * loss + DISTILL_WEIGHT * distill_loss(out, soft_targets(teaching, xb, rb))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        seen += batch
        loss_sum += float(loss.detach()) * batch
        correct += int((out.argmax(1) == yb).sum())
        if (step + 1) % 200 == 0 or step + 1 == steps:
            rate = seen / (time.monotonic() - start)
            left = (steps - step - 1) * batch / rate / 60
            print(f"  step {step + 1}/{steps}: loss {loss_sum / seen:.4f}, train acc {correct / seen:.4%}, "
                  f"{rate:.0f} crops/s, {left:.1f} min left", flush=True)
    return model.cpu().eval()


def logits_of(model, x: np.ndarray, ref: np.ndarray) -> np.ndarray:
    import torch

    model.eval()
    with torch.no_grad():
        return torch.cat([model(to_float(x[i:i + 1024]), to_float(ref[i:i + 1024]))[0]
                          for i in range(0, len(x), 1024)]).numpy()


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature ``T`` that makes softmax(logits / T) most likely on held-back real boards: how sure the
    model should be. The class priors stay those of the training draw: a bare square's prior fitted on held-back
    boards of the designs trained on (3 nats against bare) turned bare squares of unseen designs into tiles."""
    def nll(t: float) -> float:
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        return float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())

    return float(min(np.exp(np.linspace(np.log(0.2), np.log(5.0), 80)), key=nll))


def export(model, out_dir: Path, info: dict, temperature: float, log_prior_shift: np.ndarray,
           name: str = "tiles", soften: float = 0.0) -> Path:
    """``NAME.onnx`` (inputs crops and references, outputs logits and embedding) and ``NAME.json``."""
    import torch

    from tilecam.models.crops_model import WEIGHTS_NOTE, store_weights_half

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.onnx"
    dummy = torch.zeros(1, 3, CROP_PX, CROP_PX)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (dummy, dummy), str(path), input_names=["crops", "references"],
                          output_names=["logits", "embedding"], opset_version=17, dynamo=False,
                          dynamic_axes={"crops": {0: "n"}, "references": {0: "n"}, "logits": {0: "n"},
                                        "embedding": {0: "n"}})
    store_weights_half(path)
    spec = {
        "classes": list(CLASSES),
        "input": {"name": "crops", "reference": "references", "size": CROP_PX, "layout": "NCHW", "color": "RGB",
                  "scale": 1 / 255, "mean": [0.0, 0.0, 0.0], "std": [1.0, 1.0, 1.0],
                  **({"soften": soften} if soften else {})},
        "output": {"name": "logits", "kind": "logits", "embedding": "embedding"},
        "calibration": {"temperature": round(temperature, 4),
                        "log_prior_shift": [round(float(v), 4) for v in log_prior_shift]},
        "preprocessing": "tilecam.vision.warp.warp_board + cut_cells; references from tilecam.vision.context; "
                         "BGR->RGB, /255, NCHW",
        "trained": info,
        "weights": WEIGHTS_NOTE,
    }
    path.with_suffix(".json").write_text(json.dumps(spec, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tilecam.models.reader_train", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, required=True, help="folder for tiles.onnx + tiles.json")
    p.add_argument("--name", default="tiles")
    p.add_argument("--boards", type=int, default=1500, help="synthetic training boards")
    p.add_argument("--epochs", type=float, default=6.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--real-photos", type=Path, nargs="*", default=[], help="folders of NAME.jpg + NAME.board.txt")
    p.add_argument("--hold-out", nargs="*", default=[], help="names of --real-photos folders never trained on")
    p.add_argument("--calibrate-on", nargs="*", default=[],
                   help="names of --real-photos folders used only to fit the temperature (never trained on)")
    p.add_argument("--tile-crops", type=Path, nargs="*", default=[], help="folders of LETTER/*.png tile crops")
    p.add_argument("--cache", type=Path, default=Path("out/reader-cache"), help="located boards and renders")
    p.add_argument("--init", type=Path, default=None, help="start from this crops-only model (.onnx)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--synthetic-share", type=float, default=1.0,
                   help="share of the rendered examples drawn into training (the real ones all are)")
    p.add_argument("--widths", type=lambda v: tuple(int(w) for w in v.split(",")), default=WIDTHS,
                   help="channels of the four blocks, e.g. 32,64,128,192 (--init needs the default %(default)s)")
    p.add_argument("--teachers", type=Path, nargs="*", default=[],
                   help="exported readers (float .onnx) whose softened probabilities are a second target")
    p.add_argument("--steep", type=float, default=0.0,
                   help="share of the training renders drawn with the camera tilted 35-50 degrees "
                        "(reader_data.STEEP_TILT_DEG; the scenes draw 0-35)")
    p.add_argument("--faces-cuts", action="store_true",
                   help="also cut each rendered tile on the plane of the tiles' faces, where the reader reads which "
                        "tile (vision.raised), beside its cut on the board's plane")
    p.add_argument("--device", default="cpu", help="torch device to train on (cuda where a GPU is lent)")
    p.add_argument("--sharpen", type=float, default=0.0,
                   help="share of the crops sharpened (an unsharp mask, crop and reference alike) in training")
    p.add_argument("--prints", type=float, default=0.0,
                   help="share of the squares given a premium print no render draws (models.prints), on crop and "
                        "reference alike where bare, on the reference alone under a tile")
    p.add_argument("--shade", type=float, default=0.0,
                   help="share of the crops darkened or brightened across a soft edge, their reference not (a "
                        "shadow or a lamp over part of the board, not a hand)")
    p.add_argument("--glare", type=float, default=0.0,
                   help="share of the crops washed towards white by a glare, their reference not")
    p.add_argument("--blanks", type=float, default=0.0,
                   help="share of the real lettered tiles also trained on as blanks, their print erased "
                        "(models.erased: a blank is a tile of the board's make with nothing on it)")
    p.add_argument("--recoloured", type=float, default=0.0,
                   help="share of the plain bare squares also trained on as blanks, their face given a colour the "
                        "board's bare squares lack, their reference kept (models.recoloured: a blank is told from "
                        "the bare board by its reference alone)")
    p.add_argument("--soften", type=float, default=0.0,
                   help="blur every crop and reference by this Gaussian sigma (px) first, in training and, written "
                        "into the model's description, at every read (vision.classify.soften); 0: none")
    p.add_argument("--upright-with", type=Path, default=None,
                   help="model that stands the real boards' letters up (default: the shipped one)")
    args = p.parse_args(argv)
    if len(args.widths) != 4:
        p.error(f"--widths takes four channel counts, not {args.widths}")
    if args.init is not None and args.widths != WIDTHS:
        p.error(f"--init starts from a model of widths {WIDTHS}; train --widths {args.widths} without it")
    from tilecam.vision.classify import TileClassifier

    args.cache.mkdir(parents=True, exist_ok=True)
    # named by what changes the renders' examples
    drawn = (f"-steep{args.steep:g}" if args.steep else "") + ("-faces" if args.faces_cuts else "")
    synth_cache = args.cache / f"synthetic-{args.boards}-{args.seed}{drawn}.npz"
    if synth_cache.exists():
        with np.load(synth_cache) as d:
            synthetic = Examples(d["x"], d["ref"], d["y"], d["board"])
    else:
        print(f"rendering {args.boards} synthetic boards …", flush=True)
        synthetic = synthetic_examples(args.boards, args.seed, steep=args.steep, on_faces=args.faces_cuts)
        np.savez(synth_cache, x=synthetic.x, ref=synthetic.ref, y=synthetic.y, board=synthetic.board)
    if not np.isin(synthetic.y, [CLASS_INDEX[c] for c in LATER_LETTERS]).any():
        print(f"note: the renders hold no Spanish or Polish letter ({', '.join(LATER_LETTERS)}): {synth_cache} was "
              "rendered before the training renders drew Spanish and Polish boards (synth.TRAINING_TILESET_MIX), "
              "or too few boards were drawn; delete it to render them", flush=True)
    upright = TileClassifier.load(args.upright_with)
    bare = synthetic.ref[synthetic.y == EMPTY]
    if args.synthetic_share < 1:
        keep = np.random.default_rng(args.seed).random(len(synthetic)) < args.synthetic_share
        synthetic = synthetic.take(np.flatnonzero(keep))
    train_parts, calib_parts, used = [synthetic], [], [f"synthetic:{len(synthetic)}"]
    board_no = 100_000
    for folder in args.real_photos:
        if folder.name in args.hold_out:
            print(f"{folder.name}: held out, never trained on", flush=True)
            continue
        names, crops, labels = located_boards(folder, args.cache / f"located-{folder.name}.npz")
        boards = []
        for name, c, y in zip(names, crops, labels):
            k, fit = label_turn(c, y)
            if fit < MIN_LABEL_FIT:
                print(f"  {folder.name}/{name}: the grid found does not fit the label ({fit:.2f}): left out",
                      flush=True)
                continue
            y = np.rot90(y.reshape(15, 15), k).reshape(-1)
            boards.append((c, y, labelled_letters_turn(c, y, upright.probabilities)))
        if folder.name in args.calibrate_on:
            held, kept = boards, []
        else:       # every CALIBRATION_EVERY-th board of each folder is held back to calibrate on, never trained on
            held = boards[CALIBRATION_EVERY - 1::CALIBRATION_EVERY]
            kept = [b for i, b in enumerate(boards) if i % CALIBRATION_EVERY != CALIBRATION_EVERY - 1]
        for part, kind in ((kept, "train"), (held, "calibration")):
            if part:
                (train_parts if kind == "train" else calib_parts).append(real_examples(part, board_no))
                board_no += len(part)
                used.append(f"{kind}:{folder.name}:{len(part)}")
        print(f"{folder.name}: {len(names)} boards", flush=True)
    rng = np.random.default_rng(args.seed)
    for folder in args.tile_crops:
        crops = tile_crop_examples(folder, bare, rng, board_no)
        board_no += 1
        train_parts.append(crops)
        used.append(f"tiles:{folder.name}:{len(crops)}")
    if args.blanks:
        real = Examples.concat(train_parts[1:])        # the real boards' squares and the real tile crops
        made = blanks_from_letters(real, args.blanks, np.random.default_rng([args.seed, BLANK_STREAM]))
        train_parts.append(made)
        used.append(f"blanks:{len(made)}")
    if args.recoloured:
        made = blanks_from_bare(Examples.concat(train_parts), args.recoloured,
                                np.random.default_rng([args.seed, RECOLOUR_STREAM]))
        train_parts.append(made)
        used.append(f"recoloured:{len(made)}")
    data = Examples.concat(train_parts)
    if args.soften:
        data = softened(data, args.soften)
        calib_parts = [softened(part, args.soften) for part in calib_parts]
    print(f"training on {len(data)} examples: {describe(data)}", flush=True)
    model = train(data, args.epochs, args.seed, lr=args.lr, init=args.init, device=args.device, widths=args.widths,
                  teachers=args.teachers, sharpen=args.sharpen, prints=args.prints,
                  shade=args.shade, glare=args.glare)
    temperature = 1.0
    if calib_parts:
        held = Examples.concat(calib_parts)
        temperature = fit_temperature(logits_of(model, held.x, held.ref), held.y)
    shift = np.zeros(len(CLASSES))      # the draw's priors stand (see fit_temperature)
    info = {"seed": args.seed, "boards": args.boards, "epochs": args.epochs, "sources": used, "lr": args.lr,
            "init": str(args.init) if args.init else None, "widths": list(args.widths), "device": args.device,
            "teachers": [str(t) for t in args.teachers], **({"sharpen": args.sharpen} if args.sharpen else {}),
            **({"prints": args.prints} if args.prints else {}), **({"shade": args.shade} if args.shade else {}),
            **({"glare": args.glare} if args.glare else {}),
            **({"soften": args.soften} if args.soften else {}),
            **({"recoloured": args.recoloured} if args.recoloured else {}),
            "held_out": list(args.hold_out), "date": _dt.date.today().isoformat()}
    path = export(model, args.out, info, temperature, shift, args.name, args.soften)
    print(f"temperature {temperature:.3f}; wrote {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
