defmodule Tidevann.Application do
end
