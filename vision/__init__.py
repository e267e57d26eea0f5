"""Vision: find the board in a frame, rectify it, and read every square with the ONNX tile model."""
