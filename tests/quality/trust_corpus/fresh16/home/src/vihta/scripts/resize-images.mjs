// Resize public/photos into the gallery sizes.
