"""Teach a reader from readers already trained: their averaged softened probabilities as a second target.

A smaller network (fewer channels, a faster warm read) cannot start from m23's weights (``--init`` needs its
widths); a teacher of the full widths passes on what it learnt instead — the soft targets say which letters a
square's look is near, not only which one it is (Hinton et al., "Distilling the knowledge in a neural network").
Training only: nothing at run time reads this module.
"""
from __future__ import annotations

from pathlib import Path

#: The soft targets' share of the loss (the labels' cross-entropy has the rest).
DISTILL_WEIGHT = 0.5
#: Both the teachers' and the student's logits are divided by this before their softmax: the letters a teacher
#: finds next most likely keep some weight (at 1 a teacher sure of its answer says little more than the label).
DISTILL_TEMPERATURE = 2.0


def teacher_from_onnx(path: Path):
    """The reader exported in ``path`` (``reader_train.export``'s: four convolutions with their batch norms folded
    in, then the last layer) as a frozen torch module of ``reader_train.build_model``'s shape, computing in
    evaluation mode what the file does."""
    import onnx
    import torch
    from onnx import numpy_helper

    from tilecam.models.crops_model import weights_as_float32
    from tilecam.models.reader_train import build_model

    graph = weights_as_float32(onnx.load(str(path))).graph
    values = {t.name: numpy_helper.to_array(t).copy() for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = next(n for n in graph.node if n.op_type == "Gemm")
    if len(convs) != 4:
        raise ValueError(f"{path} has {len(convs)} convolutions, a reader 4 (a quantized file cannot teach)")
    weights = [values[n.input[1]] for n in convs]
    model = build_model(tuple(w.shape[0] for w in weights))
    torch_convs = [m for m in model.features if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in model.features if isinstance(m, torch.nn.BatchNorm2d)]
    with torch.no_grad():
        for conv, norm, node, w in zip(torch_convs, norms, convs, weights):
            conv.weight.copy_(torch.from_numpy(w))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(values[node.input[2]]))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)      # so that the norm divides by exactly 1
        model.head[-1].weight.copy_(torch.from_numpy(values[gemm.input[1]]))
        model.head[-1].bias.copy_(torch.from_numpy(values[gemm.input[2]]))
    for p in model.parameters():
        p.requires_grad_(False)
    return model.eval()


def soft_targets(teachers, crops, references):
    """The teachers' mean logits on a batch (no gradient)."""
    import torch

    with torch.no_grad():
        return torch.stack([t(crops, references)[0] for t in teachers]).mean(0)


def distill_loss(student_logits, teacher_logits):
    """KL divergence of the student's softened probabilities from the teachers', scaled by the temperature squared
    (so that its gradients weigh as the labels' do whatever the temperature)."""
    import torch.nn.functional as F

    t = DISTILL_TEMPERATURE
    return F.kl_div(F.log_softmax(student_logits / t, dim=1), F.log_softmax(teacher_logits / t, dim=1),
                    reduction="batchmean", log_target=True) * t * t
