defmodule TidepoolWeb.TideLive do
end
