defmodule Mix.Tasks.Hivebox.Tare do
  use Mix.Task
  @shortdoc "Tare a connected scale over ssh"
  def run(_args), do: :ok
end
