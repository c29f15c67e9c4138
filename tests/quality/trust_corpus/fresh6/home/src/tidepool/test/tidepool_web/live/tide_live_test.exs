defmodule TidepoolWeb.TideLiveTest do
end
