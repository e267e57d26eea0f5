"""The shipped tile model (``tiles.onnx``), its training and the synthetic-data generator."""
