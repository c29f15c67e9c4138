module Glossa.Api where
