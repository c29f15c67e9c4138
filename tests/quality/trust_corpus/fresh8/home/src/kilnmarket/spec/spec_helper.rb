RSpec.configure do |config|
  config.expect_with(:rspec) { |c| c.include_chain_clauses_in_custom_matcher_descriptions = true }
  config.shared_context_metadata_behavior = :apply_to_host_groups
end
