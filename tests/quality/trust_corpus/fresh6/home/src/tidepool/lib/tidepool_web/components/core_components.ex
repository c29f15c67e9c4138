defmodule TidepoolWeb.CoreComponents do
end
