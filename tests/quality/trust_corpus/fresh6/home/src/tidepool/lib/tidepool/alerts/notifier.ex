defmodule Tidepool.Alerts.Notifier do
end
