defmodule Hivebox do
  @moduledoc "Beehive scale firmware."
end
