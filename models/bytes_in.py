"""The int8 reader fed the crops as they are cut: bytes, rows of pixels, blue-green-red.

    python -m tilecam.models.bytes_in IN.onnx OUT.onnx

The trained model takes floats 0..1 in planes of red, green and blue; its quantized first convolution turns them
straight back into bytes (scale 1/255, zero point 0: a square's byte value, exactly). Fed that way, every read paid
for the conversion twice — in numpy (flip the channels, transpose, divide) and in onnxruntime (quantize, transpose
back to the pixel order its integer kernels use): a quarter of the classify on these cores. Here the graph takes
the bytes (N, S, S, 3, BGR, uint8) as ``vision.warp.cut_cells`` gives them, joins crop and reference along the
channels, turns them into planes once, and the first convolution's weights take the channels in blue-green-red
order. The logits are the same, value for value (``tests/test_models_quantize.py``). Needs the ``onnx`` package;
the result runs on onnxruntime alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

#: The input's scale and zero point at which a byte is its own quantized value: only then is this exact.
BYTE_SCALE, BYTE_ZERO = 1 / 255, 0


class NotByteExact(ValueError):
    """The model's first convolution does not read bytes as they are: feeding it bytes would change its logits."""


def takes_bytes(model):
    """The quantized reader ``model`` (a ``ModelProto``, changed in place and returned) fed uint8 crops and
    references (N, S, S, 3, BGR) instead of float planes of RGB."""
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    init = {t.name: t for t in graph.initializer}
    inputs = [i.name for i in graph.input]
    concat = next((n for n in graph.node if n.op_type == "Concat" and list(n.input) == inputs), None)
    quant = next((n for n in graph.node if concat is not None and n.op_type == "QuantizeLinear"
                  and n.input[0] == concat.output[0]), None)
    convs = [n for n in graph.node if quant is not None and quant.output[0] in n.input]
    if concat is None or quant is None or len(convs) != 1 or convs[0].op_type != "QLinearConv":
        raise NotByteExact("not a quantized reader whose inputs are joined, quantized and convolved")
    scale = float(numpy_helper.to_array(init[quant.input[1]]))
    zero = int(numpy_helper.to_array(init[quant.input[2]]))
    if abs(scale - BYTE_SCALE) > 1e-9 or zero != BYTE_ZERO:
        raise NotByteExact(f"its input is quantized at scale {scale}, zero point {zero}, not a byte as it is")
    conv = convs[0]
    weight = init[conv.input[3]]
    w = numpy_helper.to_array(weight)
    flip = np.concatenate([np.arange(k, k + 3)[::-1] for k in range(0, w.shape[1], 3)])    # RGB -> BGR, each input
    weight.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(w[:, flip]), weight.name))
    size = graph.input[0].type.tensor_type.shape.dim[2].dim_value
    joined, planes = concat.output[0] + "_bytes", quant.output[0]
    for i, name in enumerate(inputs):
        graph.input[i].CopyFrom(helper.make_tensor_value_info(name, TensorProto.UINT8, ["n", size, size, 3]))
    keep = [n for n in graph.node if n is not concat and n is not quant]
    del graph.node[:]
    graph.node.extend([helper.make_node("Concat", inputs, [joined], axis=3),
                       helper.make_node("Transpose", [joined], [planes], perm=[0, 3, 1, 2])] + keep)
    return model


def byte_spec(spec: dict) -> dict:
    """The model description ``spec`` (a ``tiles.json``'s) for the model ``takes_bytes`` made."""
    out = dict(spec)
    out["input"] = {**spec["input"], "layout": "NHWC", "color": "BGR", "dtype": "uint8", "scale": 1.0,
                    "mean": [0.0, 0.0, 0.0], "std": [1.0, 1.0, 1.0]}
    out["preprocessing"] = ("tilecam.vision.warp.warp_board + cut_cells; references from tilecam.vision.context; "
                            "fed as cut: uint8, NHWC, BGR (tilecam.models.bytes_in)")
    return out


def convert(model_in: Path, model_out: Path) -> Path:
    """``model_out`` (+ its ``.json``): the quantized ``model_in`` fed bytes (``takes_bytes``)."""
    import onnx

    model = takes_bytes(onnx.load(str(model_in)))
    onnx.checker.check_model(model)
    spec = json.loads(model_in.with_suffix(".json").read_text(encoding="utf-8"))
    model_out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(model_out))
    write_spec(model_out, byte_spec(spec))
    return model_out


def write_spec(model: Path, spec: dict) -> Path:
    """The model description ``spec`` written beside ``model`` (``NAME.json``), as the reader loads it."""
    path = model.with_suffix(".json")
    path.write_text(json.dumps(spec, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilecam.models.bytes_in", description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="a quantized reader (.onnx with its .json beside it)")
    parser.add_argument("out", type=Path, help="the reader fed bytes to write (.onnx, its .json beside it)")
    args = parser.parse_args(argv)
    try:
        path = convert(args.model, args.out)
    except NotByteExact as exc:
        print(f"{args.model}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path}: fed the crops as cut (uint8, NHWC, BGR)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
