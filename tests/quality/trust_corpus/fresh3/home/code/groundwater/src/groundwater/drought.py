def spi(series, months=3):
    return None
