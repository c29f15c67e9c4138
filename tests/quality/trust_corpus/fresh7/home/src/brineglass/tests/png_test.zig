// PNG tests
