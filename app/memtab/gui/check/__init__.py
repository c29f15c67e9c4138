"""The Check panel: is the memory still true of the code? (`feature.CheckFeature`)."""
