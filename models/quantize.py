"""The tile reader in 8-bit integers: a trained model quantized with onnxruntime's own static quantization.

    python -m tilecam.models.quantize IN.onnx OUT.onnx --real-photos DIR … [--cache DIR]

Weights per output channel in 8 bits, activations in uint8 with their ranges measured on real boards (the
``--real-photos`` folders, located and cut as the reader does, every ``EVERY``-th board; each with its references
from the board itself, as the reader reads a single photo). A warm whole-board read is dominated by the model
(225 squares); on these 2 cores the int8 model classifies a board in 0.9 of the float one's time when the machine
is idle and about half when both cores are busy, and the Pi's onnxruntime has int8 kernels for arm64 too. The
model's description (``OUT.json``, beside it) is the input's, its ``weights`` saying how the file was made; the
result is fed the crops as cut (``bytes_in``). Needs
the ``onnx`` package (the train extra); running the result needs onnxruntime only.

The weights are stored as uint8 around a zero point of 128 (``unsigned_weights``: the int8 values moved by 128, the
same numbers): onnxruntime multiplies uint8 activations by int8 weights on x86 CPUs without VNNI with an instruction
that saturates at 16 bits (``vpmaddubsw``), and on such a CPU (AVX2 only, as an AMD EPYC here) the int8-weight model
read a rendered Super Scrabble board's R as K and its logits moved by up to 1.4 against the same model's integers
computed without saturating; uint8 by uint8 takes another path there that does not saturate. It is slower there (a
whole board classified in 39-43 ms against 27-32 ms): the price of the exact numbers. Weights of 7 bits, the other
remedy onnxruntime names, keep the fast path but read levibsprung 17 squares wrong against 10 (2026-11-27).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

#: Of each real folder, every this-many-th located board is read to measure the activations' ranges: a few dozen
#: boards of every design, far more squares than the ranges need.
EVERY = 4
#: The operations computed in integers: the convolutions (nearly all of the work), their ReLUs and the pooling between
#: them. The last pooling and the linear layer stay in float, so that the embedding (the features the reader learns a
#: user's board on, ``vision.adapt``) keeps its resolution: quantized to 8 bits it took 131 values and learning from a
#: game's moves made the reading worse instead of better.
QUANTIZED_OPS = ("Conv", "Relu", "MaxPool")
WEIGHTS_NOTE = ("8-bit weights per output channel (int8 values stored as uint8 around 128), uint8 activations in the "
                "convolutions, the embedding and the last "
                "layer in float (onnxruntime.quantization.quantize_static, QOperator); activation ranges measured on "
                "real boards: {sources}")


def float32_graph(path: Path):
    """The model at ``path`` with its float16-stored weights put back as float32 (``crops_model.weights_as_float32``:
    the quantizer reads initializers, not casts of them); ``ValueError`` for a model quantized already."""
    import onnx

    from tilecam.models.crops_model import weights_as_float32

    model = onnx.load(str(path))
    if any(node.op_type.startswith("QLinear") or node.op_type == "DequantizeLinear" for node in model.graph.node):
        raise ValueError(f"{path} is quantized already: quantize the float model it was made from")
    model = weights_as_float32(model)
    onnx.checker.check_model(model)
    return model


def unsigned_weights(model):
    """``model`` (an onnx graph) with each convolution's int8 weights and zero points moved by 128 into uint8: the
    same numbers, which onnxruntime multiplies without saturating on x86 CPUs without VNNI (the module's doc)."""
    from onnx import numpy_helper

    initializers = {tensor.name: tensor for tensor in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type != "QLinearConv":
            continue
        for name in (node.input[3], node.input[5]):          # the weights and their zero points
            values = numpy_helper.to_array(initializers[name])
            if values.dtype == np.int8:
                moved = (values.astype(np.int16) + 128).astype(np.uint8)
                initializers[name].CopyFrom(numpy_helper.from_array(moved, name))
    return model


def board_batches(classifier, boards: list[np.ndarray]) -> list[dict[str, np.ndarray]]:
    """One input batch a board (its crops, and references from the board itself), as the model is fed."""
    from tilecam.vision.context import references_from_board

    return [{classifier.spec.input_name: classifier.preprocess(crops),
             classifier.spec.reference_name: classifier.preprocess(references_from_board(crops))}
            for crops in boards]


def quantize(model_in: Path, model_out: Path, batches: list[dict[str, np.ndarray]], sources: str,
             fed_bytes: bool = True) -> Path:
    """``model_out`` (+ its ``.json``): ``model_in`` quantized, activation ranges measured on ``batches``; fed the
    crops as cut (``bytes_in``) unless not ``fed_bytes``."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    from tilecam.models.bytes_in import byte_spec, takes_bytes, write_spec

    if not batches:
        raise ValueError("no boards to measure the activations on")

    class Boards(CalibrationDataReader):
        def __init__(self) -> None:
            self._left = iter(batches)

        def get_next(self):
            return next(self._left, None)

    model_out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "float32.onnx"
        onnx.save(float32_graph(model_in), str(plain))
        quantize_static(str(plain), str(model_out), Boards(), quant_format=QuantFormat.QOperator, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        op_types_to_quantize=list(QUANTIZED_OPS))
    spec = json.loads(model_in.with_suffix(".json").read_text(encoding="utf-8"))
    model = unsigned_weights(onnx.load(str(model_out)))
    if fed_bytes:
        model = takes_bytes(model)
        spec = byte_spec(spec)
    onnx.save(model, str(model_out))
    spec["weights"] = WEIGHTS_NOTE.format(sources=sources)
    write_spec(model_out, spec)
    return model_out


def main(argv: list[str] | None = None) -> int:
    from tilecam.models.reader_data import located_boards
    from tilecam.vision.classify import TileClassifier

    parser = argparse.ArgumentParser(prog="python -m tilecam.models.quantize", description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="the trained model (.onnx with its .json beside it)")
    parser.add_argument("out", type=Path, help="the int8 model to write (.onnx; its .json is written beside it)")
    parser.add_argument("--real-photos", type=Path, nargs="+", required=True,
                        help="folders of NAME.jpg + NAME.board.txt whose boards measure the activations")
    parser.add_argument("--cache", type=Path, default=Path("out/reader-cache"), help="located boards (as training)")
    args = parser.parse_args(argv)
    classifier = TileClassifier.load(args.model)
    boards, names = [], []
    for folder in args.real_photos:
        _, crops, _ = located_boards(folder, args.cache / f"located-{folder.name}.npz")
        boards.extend(crops[::EVERY])
        names.append(f"{folder.name}:{len(crops[::EVERY])}")
    path = quantize(args.model, args.out, board_batches(classifier, boards), ", ".join(names))
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB), activations measured on {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
