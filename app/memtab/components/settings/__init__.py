"""File → Settings without Qt: the model form's keys, notes and checks (`model_form`), the
local model servers' box (`local_servers_view`)."""
