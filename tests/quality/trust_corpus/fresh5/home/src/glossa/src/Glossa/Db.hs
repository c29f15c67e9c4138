module Glossa.Db where
