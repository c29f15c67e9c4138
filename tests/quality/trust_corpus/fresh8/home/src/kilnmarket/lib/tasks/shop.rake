namespace :shop do
  desc "Archive products of potters who left"
  task archive_departed: :environment do
    Product.joins(:potter).merge(Potter.departed).find_each(&:archive!)
  end
end
