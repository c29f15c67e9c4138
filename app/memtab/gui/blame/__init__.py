"""View → Blame: the editor's blame gutter and its cards (`feature.BlameFeature`)."""
