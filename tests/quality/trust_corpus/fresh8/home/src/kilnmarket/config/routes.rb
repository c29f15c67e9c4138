Rails.application.routes.draw do
  get "up" => "rails/health#show", as: :rails_health_check
  resources :products, only: %i[index show]
  resource :cart, only: %i[show update]
  post "checkout" => "checkouts#create"
  post "stripe/webhook" => "webhooks/stripe#create"
  namespace :admin do
    resources :orders
    resources :products
  end
end
