defmodule TidevannWeb.CoreComponents do
end
