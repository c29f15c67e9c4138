defmodule Hivebox.ScaleTest do
  use ExUnit.Case
end
