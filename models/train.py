"""Train the tile classifier and export it to ONNX (``[train]`` extra; torch, never needed at runtime).

    python -m tilecam.models.train --out models/ --minutes 8 --seed 7

Torch runs on the CPU (two threads, as here); where a GPU is lent, ``--device cuda`` keeps the crops and their
augmentation on it, which lets one run train on ten times the boards in the same minutes.

Data: synthetic renders (``tilecam.models.synth``, training styles and seeds only) and, unless ``--no-real``, the
real ScrabScrap photos of games 01–02 (games 03–04 are evaluation only). Every crop is cut by
``tilecam.vision.warp`` exactly as the reader cuts it. Progress (loss, accuracy, time left) is printed per epoch.
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

from tilecam.models.dataset import CLASS_INDEX, CLASSES, SHARED_BOARDS, TRAIN_GAMES, real_crops
from tilecam.vision.classify import letter_mask
from tilecam.vision.warp import CROP_PX

SKIN = np.array([[140, 170, 225], [110, 140, 200], [80, 110, 170], [60, 80, 120], [170, 190, 235]], np.float32)


def occlude(crops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Crops with most of their area under a skin- or sleeve-coloured shape: the ``#`` (occluded) examples."""
    out = crops.copy()
    n, s = len(out), out.shape[1]
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    for i in range(n):
        colour = SKIN[rng.integers(len(SKIN))] * rng.uniform(0.7, 1.15) if rng.random() < 0.8 \
            else rng.uniform(20, 230, 3)
        angle = rng.uniform(0, np.pi)
        offset = rng.uniform(-0.25, 0.15) * s
        d = (xx - s / 2) * np.cos(angle) + (yy - s / 2) * np.sin(angle)
        mask = d > offset
        shade = 1 + 0.25 * (d / s)[..., None]
        out[i][mask] = np.clip(colour * shade[mask], 0, 255)
    return out


#: Most tiles on a sparse board (``--sparse``): from none to this many, so the centre star is seen bare, …
SPARSE_TILES = 3
#: … and the bare star's crop kept this many times over (augmented apart in training): one square in 225 of a tenth
#: of the boards is too rare a sight to learn, and a model that has not learnt it reads the star as an X or a hand.
STAR_COPIES = 20


def centre_square() -> int:
    """The centre star's square, row-major, from the board layout (rules data), as ``crops_and_labels`` cuts."""
    from tilecam.engine.layout import Layout

    layout = Layout.load()
    row, col = layout.center
    return row * layout.size + col


def _render_crops(job: tuple[int, int, float, bool]) -> tuple[np.ndarray, np.ndarray]:
    """Crops and labels of one training render (a worker's job: board seed, index, share of empties kept, whether
    the board is a sparse one)."""
    from tilecam.models import synth
    from tilecam.models.dataset import crops_and_labels

    board_seed, i, empties, sparse = job
    tileset = "german" if i % 3 == 2 else "english"     # Ä Ö Ü tiles too, for German boards
    grid = None
    if sparse:      # an empty or nearly empty board: the first frame of every game, its centre star bare
        rng = np.random.default_rng([board_seed, 11])
        grid = synth.random_grid(rng, tileset, tiles=int(rng.integers(0, SPARSE_TILES + 1)))
    render = synth.render_board(grid, seed=board_seed, styles=synth.TRAINING_STYLES, tileset=tileset)
    x, y = crops_and_labels(render.image, render.corners, list(render.grid))
    y[np.asarray(render.occluded).reshape(-1)] = CLASS_INDEX["#"]
    keep = (y != CLASS_INDEX["."]) | (np.random.default_rng(board_seed).random(len(y)) < empties)
    centre = centre_square()
    if sparse and y[centre] == CLASS_INDEX["."]:
        keep = np.concatenate([np.flatnonzero(keep), np.full(STAR_COPIES, centre)])
    return x[keep], y[keep]


def sparse_boards(n_boards: int, share: float) -> list[bool]:
    """Which of ``n_boards`` are sparse ones: ``share`` of them, spread evenly (every tenth for 0.1)."""
    return [int((i + 1) * share) > int(i * share) for i in range(n_boards)]


def synthetic_crops(n_boards: int, seed: int, empties: float = 0.5, workers: int = 2, sparse: float = 0.0
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Crops of ``n_boards`` training renders (training styles and seeds only), rendered by ``workers`` processes.

    A ``sparse`` share of the boards (every board whose index falls in it, evenly spread) holds only a few tiles:
    random positions cover the centre star with the first word, so without them the model hardly ever sees an
    empty board's star (and read it as an X). Every board is seeded on its own, so the result does not depend on
    the number of workers.
    """
    from tilecam.models import synth

    seeds = synth.TRAIN_SEEDS[seed * 10_000:seed * 10_000 + n_boards]   # a slice of the training seeds only
    jobs = [(int(board_seed), i, empties, few) for i, (board_seed, few) in
            enumerate(zip(seeds, sparse_boards(len(seeds), sparse)))]
    xs, ys = [], []
    pool = None
    if workers > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers)
    try:
        results = pool.imap(_render_crops, jobs, chunksize=8) if pool else map(_render_crops, jobs)
        for i, (x, y) in enumerate(results):
            xs.append(x)
            ys.append(y)
            if (i + 1) % 100 == 0 or i + 1 == n_boards:
                print(f"  rendered {i + 1}/{n_boards} boards", flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    return np.concatenate(xs), np.concatenate(ys)


def cached_synthetic_crops(cache: Path | None, n_boards: int, seed: int, empties: float, workers: int,
                           sparse: float) -> tuple[np.ndarray, np.ndarray]:
    """``synthetic_crops``, kept in ``cache`` (an .npz that names what it holds) and read back from there when it
    holds the same boards; a cache of other boards is an error rather than quietly used or overwritten."""
    what = {"boards": n_boards, "seed": seed, "empties": empties, "sparse": sparse, "star_copies": STAR_COPIES}
    if cache is not None and cache.exists():
        with np.load(cache) as data:
            held = json.loads(str(data["what"]))
            if held != what:
                raise ValueError(f"{cache} holds the crops of {held}, not of {what}")
            print(f"read the crops of {n_boards} boards from {cache}", flush=True)
            return data["x"], data["y"]
    print(f"rendering {n_boards} synthetic boards …", flush=True)
    x, y = synthetic_crops(n_boards, seed, empties, workers, sparse)
    if cache is not None:
        np.savez(cache, x=x, y=y, what=np.array(json.dumps(what)))
    return x, y


def sample_weights(y: np.ndarray, real: np.ndarray | None = None, blank_boost: float = 4.0,
                   real_boost: float = 2.0, real_blank_boost: float = 4.0, hard: np.ndarray | None = None,
                   hard_boost: float = 2.0) -> np.ndarray:
    """Per-crop sampling weights: letters balanced among themselves (share ~ sqrt of their count), while empty and
    occluded keep their natural share — a reader sees mostly empty squares, and over-sampling a rare class teaches
    it to call empty squares that. Blank tiles are drawn ``blank_boost`` times their share (rare, and each board
    maker's blank looks different), crops of real photos ``real_boost`` times theirs (fewer, and the real thing),
    and the real blanks ``real_blank_boost`` times more again (ScrabScrap's see-through blank: 29 squares in games
    01–02). With ``hard`` (``mine_hard``'s crops a model read least surely), those are drawn ``hard_boost`` times
    more."""
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    letters = letter_mask(CLASSES) & (counts > 0)
    w = np.ones(len(CLASSES))
    share = np.sqrt(counts[letters])
    w[letters] = share / share.sum() * counts[letters].sum() / counts[letters]
    w[CLASS_INDEX["?"]] = blank_boost
    out = w[y]
    if real is not None:
        out = out * np.where(real, real_boost, 1.0)
        out = out * np.where(real & (y == CLASS_INDEX["?"]), real_blank_boost, 1.0)
    if hard is not None:
        out = out * np.where(hard, hard_boost, 1.0)
    return out


#: Channels of the four conv blocks: "standard" is the shipped net (5.8 M multiply-adds a crop), "small" a third
#: of that, for the Pi's time budget.
WIDTHS = {"standard": (16, 32, 64, 96), "small": (8, 16, 32, 64)}


def mine_hard(x: np.ndarray, y: np.ndarray, model_path: Path, sure: float = 0.95, keep_easy: float = 0.2,
              seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Which crops to train on after a model already read them (hard-example mining): every crop ``model_path``
    gives less than ``sure`` to its true class, and a ``keep_easy`` share of the others (so the model does not
    forget what it reads well). Returns the kept indices and, for them, whether each is a hard one."""
    from tilecam.vision.classify import TileClassifier

    clf = TileClassifier.load(model_path, second=False)
    if list(clf.classes) != list(CLASSES):
        raise ValueError(f"{model_path} has other classes than the training set")
    p_true = np.empty(len(y), np.float32)
    for k in range(0, len(y), 4096):
        part = slice(k, k + 4096)
        p_true[part] = np.take_along_axis(clf.classify(x[part])[1], y[part, None], axis=1)[:, 0]
    hard = p_true < sure
    keep = hard | (np.random.default_rng(seed).random(len(y)) < keep_easy)
    idx = np.flatnonzero(keep)
    return idx, hard[idx]


def build_model(width: str = "standard"):
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    a, b, c, d = WIDTHS[width]
    return nn.Sequential(
        *block(3, a), nn.MaxPool2d(2),           # 40 -> 20
        *block(a, b), nn.MaxPool2d(2),           # 20 -> 10
        *block(b, c), nn.MaxPool2d(2),           # 10 -> 5
        *block(c, d),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(d, len(CLASSES)),
    )


#: Share of each batch washed out (light added, saturating) and the most light added (0..1 of full scale): with
#: 0.2 / 0.45, white Hasbro squares came to be read as blank tiles (a washed-out blank is white and bare too).
WASH_SHARE, WASH_LIGHT = 0.12, 0.35


def augment(x, rng_t):
    """Brightness, contrast, colour cast, blur on a third of the batch, wash-out on a few, and a shift of a few
    pixels, on a float batch in NCHW, 0..1. Draws come from ``rng_t``, a generator on the batch's device."""
    import torch
    import torch.nn.functional as F

    n, dev = x.shape[0], x.device

    def rand(*shape):
        return torch.rand(*shape, generator=rng_t, device=dev)

    gain = 1 + 0.35 * (rand(n, 1, 1, 1) - 0.5)
    cast = 1 + 0.16 * (rand(n, 3, 1, 1) - 0.5)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = 1 + 0.4 * (rand(n, 1, 1, 1) - 0.5)
    x = ((x - mean) * contrast + mean) * gain * cast
    # A camera a little out of focus, or a board further away: one Gaussian per batch, on a random third.
    sigma = 0.5 + 0.8 * rand(1)
    t = torch.arange(-2, 3, dtype=torch.float32, device=dev)
    g = torch.exp(-t ** 2 / (2 * sigma ** 2))
    kernel = (g[:, None] * g[None, :] / g.sum() ** 2).expand(3, 1, 5, 5)
    blurred = F.conv2d(F.pad(x, (2, 2, 2, 2), mode="replicate"), kernel, groups=3)
    pick = (rand(n, 1, 1, 1) < 0.33).float()
    x = pick * blurred + (1 - pick) * x
    # Glare or an over-exposed frame: light added on top, saturating, on a share of the batch — a white board's
    # ivory tiles go white on white with faint letters, which the model otherwise calls occluded.
    washed = (rand(n, 1, 1, 1) < WASH_SHARE).float()
    light = WASH_LIGHT * rand(n, 1, 1, 1) * washed
    x = x * (1 + 0.3 * rand(n, 1, 1, 1) * washed) + light
    dx, dy = (torch.randint(-3, 4, (2,), generator=rng_t, device=dev)).tolist()
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    x = x + 0.02 * torch.randn(x.shape, generator=rng_t, device=dev)
    return x.clamp(0, 1)


def to_tensor(crops: np.ndarray):
    """BGR uint8 crops (N, S, S, 3) → RGB float NCHW in 0..1."""
    return to_bytes(crops).float() / 255.0


def to_bytes(crops: np.ndarray):
    """BGR uint8 crops (N, S, S, 3) → an RGB uint8 NCHW tensor (a quarter of the memory of floats)."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2)[:, ::-1]))


def init_from_onnx(model, path: Path, sample: np.ndarray) -> None:
    """Start ``model`` (``build_model``'s) from an exported one: its convolutions carry the batch norms folded in
    (weight and bias); each batch norm is set to the statistics of its convolution's output over ``sample``
    (crops) with a scale and shift that undo them, so the network computes what the file does, in training mode
    nearly and in evaluation mode exactly, and training goes on from there."""
    import onnx
    import torch
    import torch.nn as nn
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    values = {t.name: numpy_helper.to_array(t).copy() for t in graph.initializer}
    for node in graph.node:     # weights stored as float16 (``store_weights_half``) are named by their cast
        if node.op_type == "Cast" and node.input[0] in values:
            values[node.output[0]] = values[node.input[0]].astype(np.float32)
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = next(n for n in graph.node if n.op_type == "Gemm")
    layers = list(model)
    torch_convs = [i for i, m in enumerate(layers) if isinstance(m, nn.Conv2d)]
    if len(convs) != len(torch_convs):
        raise ValueError(f"{path} has {len(convs)} convolutions, the network {len(torch_convs)}")
    with torch.no_grad():
        h = to_tensor(sample)
        for i, layer in enumerate(layers):
            if isinstance(layer, nn.Conv2d):
                node = convs[torch_convs.index(i)]
                layer.weight.copy_(torch.from_numpy(values[node.input[1]]))
                bias = torch.from_numpy(values[node.input[2]])
                z = layer(h)
                mean, var = z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3), unbiased=False)
                bn = layers[i + 1]
                bn.running_mean.copy_(mean)
                bn.running_var.copy_(var)
                bn.weight.copy_(torch.sqrt(var + bn.eps))
                bn.bias.copy_(mean + bias)
                h = z
            elif isinstance(layer, nn.BatchNorm2d):
                h = layer.eval()(h)
            elif isinstance(layer, nn.Linear):
                layer.weight.copy_(torch.from_numpy(values[gemm.input[1]]))
                layer.bias.copy_(torch.from_numpy(values[gemm.input[2]]))
                h = layer(h)
            else:
                h = layer.eval()(h)


def train(x: np.ndarray, y: np.ndarray, minutes: float, seed: int, x_val=None, y_val=None,
          width: str = "standard", batch: int = 256, real: np.ndarray | None = None, init: Path | None = None,
          lr: float = 3e-3, hard: np.ndarray | None = None, hard_boost: float = 2.0, device: str = "cpu"):
    """Train ``build_model(width)`` on the crops for ``minutes`` (cosine decay over the budget) and return it on
    the CPU. ``device`` "cuda" keeps the crops (as bytes) and the augmentation on the GPU; losses are read back
    every 200 steps only, so the GPU is not held up waiting for each one."""
    import torch
    import torch.nn as nn

    torch.manual_seed(seed)
    if device == "cpu":
        torch.set_num_threads(2)
    rng_t = torch.Generator(device=device).manual_seed(seed)
    model = build_model(width)
    if init is not None:
        init_from_onnx(model, init, x[np.random.default_rng(seed).choice(len(x), 4096, replace=False)])
    model = model.to(device)
    weights = torch.from_numpy(sample_weights(y, real, hard=hard, hard_boost=hard_boost)).to(device)
    xt, yt = to_bytes(x).to(device), torch.from_numpy(y).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    deadline = time.monotonic() + minutes * 60
    start = time.monotonic()
    epoch = 0
    while time.monotonic() < deadline:
        epoch += 1
        model.train()
        total = 0
        loss_sum = torch.zeros((), device=device)
        correct = torch.zeros((), dtype=torch.long, device=device)
        order = torch.multinomial(weights, len(y), replacement=True, generator=rng_t)
        for k in range(0, len(order), batch):
            idx = order[k:k + batch]
            xb, yb = augment(xt[idx].float() / 255.0, rng_t), yt[idx]
            out = model(xb)
            loss = loss_fn(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.detach() * len(yb)
            correct += (out.argmax(1) == yb).sum()
            total += len(yb)
            frac = min(1.0, (time.monotonic() - start) / (minutes * 60))
            for group in opt.param_groups:      # cosine decay over the time budget, step by step
                group["lr"] = lr * 0.5 * (1 + np.cos(np.pi * frac))
            if (k // batch) % 200 == 199:
                print(f"  epoch {epoch}: {k + batch}/{len(order)} crops, loss {float(loss_sum) / total:.4f}, "
                      f"{max(0.0, deadline - time.monotonic()) / 60:.1f} min left", flush=True)
            if time.monotonic() > deadline:
                break
        msg = f"epoch {epoch}: loss {float(loss_sum) / total:.4f} train acc {int(correct) / total:.4%}"
        if x_val is not None:
            msg += f" | held-out error {evaluate(model, x_val, y_val):.4%}"
        left = max(0.0, deadline - time.monotonic())
        print(f"{msg} | {left / 60:.1f} min left", flush=True)
    return model.cpu()


def evaluate(model, x: np.ndarray, y: np.ndarray) -> float:
    """Share of the crops ``model`` reads wrong (on whichever device the model is)."""
    import torch

    model.eval()
    dev = next(model.parameters()).device
    with torch.no_grad():
        pred = torch.cat([model(to_tensor(x[i:i + 1024]).to(dev)).argmax(1).cpu()
                          for i in range(0, len(x), 1024)]).numpy()
    return float((pred != y).mean())


def export(model, out_dir: Path, info: dict, name: str = "tiles") -> Path:
    import torch

    model.eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = out_dir / f"{name}.onnx"
    dummy = torch.zeros(1, 3, CROP_PX, CROP_PX)
    # The TorchScript exporter on purpose: it needs only the onnx package (the dynamo one needs onnxscript too)
    # and handles this plain CNN exactly; torch warns that it is no longer the default.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, dummy, str(onnx_path), input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    store_weights_half(onnx_path)
    spec = {
        "classes": list(CLASSES),
        "input": {"name": "crops", "size": CROP_PX, "layout": "NCHW", "color": "RGB", "scale": 1 / 255,
                  "mean": [0.0, 0.0, 0.0], "std": [1.0, 1.0, 1.0]},
        "output": {"name": "logits", "kind": "logits"},
        "preprocessing": "tilecam.vision.warp.warp_board + cut_cells on the grid corners; BGR->RGB, /255, NCHW",
        "trained": info,
        "weights": WEIGHTS_NOTE,
    }
    onnx_path.with_suffix(".json").write_text(json.dumps(spec, indent=2, ensure_ascii=False) + "\n",
                                              encoding="utf-8")
    return onnx_path


WEIGHTS_NOTE = "float16 in the file, float32 in the graph (train.store_weights_half)"   # tiles.json's "weights"


def store_weights_half(onnx_path: Path) -> None:
    """Rewrite the ONNX file with its float weights stored as float16, each cast back to float32 in the graph.

    The file is half the size (several models ship together under the megabyte) and the model computes in float32
    as before: onnxruntime folds the casts into constants when it loads the file, so reading costs the same. The
    rounding moves a logit by a few thousandths at most."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(onnx_path))
    graph = model.graph
    kept, casts = [], []
    for tensor in graph.initializer:
        values = numpy_helper.to_array(tensor)
        if values.dtype != np.float32 or values.size <= 16:   # scalars and shapes are not worth it
            kept.append(tensor)
            continue
        half = numpy_helper.from_array(values.astype(np.float16), tensor.name + "_half")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [tensor.name], to=TensorProto.FLOAT))
    if not casts:
        return
    nodes = list(graph.node)
    del graph.initializer[:], graph.node[:]
    graph.initializer.extend(kept)
    graph.node.extend(casts + nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(onnx_path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecam.models.train", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--name", default="tiles", help="file stem of the exported model")
    ap.add_argument("--minutes", type=float, default=8.0, help="training time budget")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--width", choices=sorted(WIDTHS), default="standard", help="network size")
    ap.add_argument("--synthetic", type=int, default=600, help="synthetic boards to render (0: none)")
    ap.add_argument("--empties", type=float, default=0.5, help="share of the renders' empty squares kept")
    ap.add_argument("--workers", type=int, default=2, help="processes rendering the synthetic boards")
    ap.add_argument("--sparse", type=float, default=0.0,
                    help="share of the synthetic boards with only 0-3 tiles (an empty board's centre star)")
    ap.add_argument("--crops-cache", type=Path, help="keep the rendered crops in this .npz and read them from "
                    "there when it matches (several trainings on the same boards render them once)")
    ap.add_argument("--real", dest="real", action="store_true", default=True,
                    help="add the real photos of games 01-02 (default)")
    ap.add_argument("--no-real", dest="real", action="store_false", help="synthetic only (zero-shot model)")
    ap.add_argument("--real-dir", type=Path, default=SHARED_BOARDS)
    ap.add_argument("--init", type=Path, help="go on training from this exported model (.onnx of this network)")
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (cosine decay over the budget)")
    ap.add_argument("--mine", type=Path, help="keep only the crops this model reads under --sure, and a share of "
                    "the rest (hard-example mining; with --init, a fine-tune on what the model gets least right)")
    ap.add_argument("--device", default="cpu", help="torch device to train on (cpu, or cuda where one is lent)")
    ap.add_argument("--batch", type=int, default=256, help="crops per training step")
    ap.add_argument("--sure", type=float, default=0.95, help="with --mine: a crop read under this is a hard one")
    ap.add_argument("--keep-easy", type=float, default=0.2, help="with --mine: share of the easy crops kept")
    ap.add_argument("--hard-boost", type=float, default=2.0, help="with --mine: hard crops drawn this much more")
    args = ap.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    xs, ys, reals, hards, sources = [], [], [], [], []   # hards: with --mine, the crops the model read least surely
    if args.synthetic:
        x, y = cached_synthetic_crops(args.crops_cache, args.synthetic, args.seed, args.empties, args.workers,
                                      args.sparse)
        hard = np.zeros(len(y), bool)
        if args.mine:
            idx, hard = mine_hard(x, y, args.mine, args.sure, args.keep_easy, args.seed)
            print(f"mined with {args.mine.name}: {int(hard.sum())} hard crops (under {args.sure}) of {len(y)}, "
                  f"{len(idx) - int(hard.sum())} easy ones kept", flush=True)
            x, y = x[idx], y[idx]
        xs.append(x)
        ys.append(y)
        reals.append(np.zeros(len(y), bool))
        hards.append(hard)
        sources.append(f"synthetic:{args.synthetic}")
    if args.real:
        if not args.real_dir.is_dir():
            print(f"error: no real photos at {args.real_dir} (use --no-real)", file=sys.stderr)
            return 2
        x, y = real_crops(args.real_dir, TRAIN_GAMES, jitter=3, copies=3, seed=args.seed)
        xs.append(x)
        ys.append(y)
        reals.append(np.ones(len(y), bool))
        hards.append(np.zeros(len(y), bool))
        sources.append("real:" + ",".join(TRAIN_GAMES))
    if not xs:
        print("error: no training data (both --synthetic 0 and --no-real)", file=sys.stderr)
        return 2
    x, y, real, hard = np.concatenate(xs), np.concatenate(ys), np.concatenate(reals), np.concatenate(hards)
    # Occluded examples: a share of the crops, covered.
    pick = rng.choice(len(x), size=max(200, len(x) // 16), replace=False)
    x = np.concatenate([x, occlude(x[pick], rng)])
    y = np.concatenate([y, np.full(len(pick), CLASS_INDEX["#"])])
    real = np.concatenate([real, real[pick]])
    hard = np.concatenate([hard, np.zeros(len(pick), bool)])      # a covered copy is an occluded square, not hard
    print(f"{len(x)} crops; per class: " + " ".join(f"{c}:{n}" for c, n in
                                                    zip(CLASSES, np.bincount(y, minlength=len(CLASSES)))),
          flush=True)
    x_val = y_val = None
    if args.real_dir.is_dir():   # reported only, never trained on
        x_val, y_val = real_crops(args.real_dir, ("game03", "game04"))
    model = train(x, y, args.minutes, args.seed, x_val, y_val, args.width, real=real, init=args.init, lr=args.lr,
                  hard=hard, hard_boost=args.hard_boost, device=args.device, batch=args.batch)
    from tilecam.models import synth

    info = {"seed": args.seed, "minutes": args.minutes, "width": args.width, "sources": sources, "lr": args.lr,
            "init": args.init.name if args.init else None,
            "mined_with": args.mine.name if args.mine else None,
            "empties_kept": args.empties, "sparse": args.sparse,
            "device": args.device, "batch": args.batch,
            "fonts": sorted({s.split("/")[2] for s in synth.TRAINING_STYLES}),
            "date": _dt.date.today().isoformat(), "crops": int(len(x))}
    if x_val is not None:
        info["real_game03_04_cell_error_true_corners"] = evaluate(model, x_val, y_val)
    path = export(model, args.out, info, args.name)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB) and {path.with_suffix('.json').name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
