"""The crops-only tile model the reader grew from, and the ONNX weight handling both share.

``build_crops_model`` is the network of the earlier single-input model (m23, ``git show 542391e:models/tiles.onnx``);
``init_from_onnx`` loads such a file into it, so ``reader_train --init`` can start from what it had learnt: its last
layer class by class, by the classes' names (a file of 32 classes starts a model of more; the others start fresh).
``store_weights_half`` keeps the exported files small.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tilecam.models.dataset import CLASSES

WIDTHS = {"standard": (16, 32, 64, 96)}


def build_crops_model(width: str = "standard", outputs: int = len(CLASSES)):
    """The crops-only network with ``outputs`` logits (``CLASSES``'s by default; an older file's had fewer)."""
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    a, b, c, d = WIDTHS[width]
    return nn.Sequential(
        *block(3, a), nn.MaxPool2d(2),           # 40 -> 20
        *block(a, b), nn.MaxPool2d(2),           # 20 -> 10
        *block(b, c), nn.MaxPool2d(2),           # 10 -> 5
        *block(c, d),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(d, outputs),
    )


def classes_of_file(path: Path, outputs: int) -> tuple[str, ...]:
    """The class of each of the ``outputs`` logits of the model file ``path``: as its ``.json`` beside it lists
    them, else the first ``outputs`` of ``CLASSES`` (classes are only ever appended, so an older file's are
    those)."""
    spec = path.with_suffix(".json")
    if spec.is_file():
        classes = tuple(json.loads(spec.read_text(encoding="utf-8"))["classes"])
    elif outputs <= len(CLASSES):
        classes = CLASSES[:outputs]
    else:
        raise ValueError(f"{path} has {outputs} outputs, more than the {len(CLASSES)} classes, and no .json")
    if len(classes) != outputs:
        raise ValueError(f"{spec} lists {len(classes)} classes for the {outputs} outputs of {path.name}")
    return classes


def load_rows_by_class(linear, weight: np.ndarray, bias: np.ndarray, classes: tuple[str, ...]) -> None:
    """Set the rows of ``linear`` (outputs ``CLASSES``) of the classes the file has (``weight``/``bias`` rows named
    by ``classes``); the rows of classes it lacks keep their fresh initialisation. Torch, no grad."""
    import torch

    index = {c: i for i, c in enumerate(CLASSES)}
    for row, name in enumerate(classes):
        if name in index:
            linear.weight[index[name]] = torch.from_numpy(weight[row])
            linear.bias[index[name]] = float(bias[row])


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
    nearly and in evaluation mode exactly, and training goes on from there. The last layer is loaded class by class
    by name (``classes_of_file``): a class the file lacks (a letter added since) starts fresh."""
    import onnx
    import torch
    import torch.nn as nn
    from onnx import numpy_helper

    graph = weights_as_float32(onnx.load(str(path))).graph
    values = {t.name: numpy_helper.to_array(t).copy() for t in graph.initializer}
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
                weight, bias = values[gemm.input[1]], values[gemm.input[2]]
                load_rows_by_class(layer, weight, bias, classes_of_file(path, len(bias)))
                h = layer(h)
            else:
                h = layer.eval()(h)


WEIGHTS_NOTE = "float16 in the file, float32 in the graph (crops_model.store_weights_half)"   # tiles.json's "weights"


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


def weights_as_float32(model):
    """The ONNX ``model`` (a ``ModelProto``, changed in place and returned) with the weights ``store_weights_half``
    stored as float16 put back as float32 initializers under the names their casts gave them, the casts gone: the
    graph as exported, for code that reads its initializers (loading a model to train from it, quantizing it)."""
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    stored = {t.name: t for t in graph.initializer}
    nodes, restored = [], []
    for node in graph.node:
        source = stored.get(node.input[0]) if node.op_type == "Cast" and node.input else None
        if source is not None and source.data_type == TensorProto.FLOAT16:
            restored.append(numpy_helper.from_array(numpy_helper.to_array(source).astype(np.float32), node.output[0]))
        else:
            nodes.append(node)
    used = {name for node in nodes for name in node.input}
    kept = [t for t in graph.initializer if t.name in used]
    del graph.node[:], graph.initializer[:]
    graph.node.extend(nodes)
    graph.initializer.extend(kept + restored)
    return model
