(ns bellrope.system
  (:require [aero.core :as aero]
            [clojure.java.io :as io]
            [integrant.core :as ig]))

(defn config [profile]
  (aero/read-config (io/resource "config.edn") {:profile profile}))

(defn start! [profile]
  (ig/init (config profile)))
