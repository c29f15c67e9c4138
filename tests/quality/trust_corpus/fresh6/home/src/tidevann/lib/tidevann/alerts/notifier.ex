defmodule Tidevann.Alerts.Notifier do
end
