def load_levels(path):
    import pandas as pd
    return pd.read_csv(path, parse_dates=['date'])
