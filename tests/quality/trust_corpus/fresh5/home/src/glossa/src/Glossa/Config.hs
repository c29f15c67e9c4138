module Glossa.Config where
