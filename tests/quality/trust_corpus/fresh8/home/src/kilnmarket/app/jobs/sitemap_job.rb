class SitemapJob < ApplicationJob
  def perform
    SitemapGenerator::Interpreter.run
  end
end
