require "rails_helper"

RSpec.describe Order do
  it "starts pending" do
    expect(build(:order)).to be_pending
  end
end
