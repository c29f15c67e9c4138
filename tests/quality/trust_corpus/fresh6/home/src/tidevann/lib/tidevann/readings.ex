defmodule Tidevann.Readings do
end
