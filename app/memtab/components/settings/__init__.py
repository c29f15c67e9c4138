"""File → Settings without Qt: the model form and the local model servers' box (`model_form`),
Other agents (`agents_view`), and the dialog's jobs (`jobs`)."""
