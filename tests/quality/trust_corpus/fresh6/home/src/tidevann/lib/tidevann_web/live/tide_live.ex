defmodule TidevannWeb.TideLive do
end
