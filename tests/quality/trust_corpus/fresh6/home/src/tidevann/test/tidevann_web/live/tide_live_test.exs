defmodule TidevannWeb.TideLiveTest do
end
