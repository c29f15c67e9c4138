module Glossa.Auth.Jwt where
