"""The Wessex Herbarium's digitisation pipeline."""
