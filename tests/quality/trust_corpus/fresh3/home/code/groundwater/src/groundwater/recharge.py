def fit(levels, rainfall, seed=42):
    return None
