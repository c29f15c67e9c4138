"""IIIF manifests for published sheets."""

IMAGE_SERVER = "http://localhost:8182/iiif/3"
