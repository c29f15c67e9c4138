(ns bellrope.http.routes
  (:require [reitit.ring :as ring]))

(defn routes [handlers]
  [["/healthz" {:get (constantly {:status 200 :body "ok"})}]
   ["/staff/api" ["/holds" {:get (:list-holds handlers)}]]
   ["/r" ["/holds/:card" {:get (:reader-holds handlers)}]]])

(defn app [handlers]
  (ring/ring-handler (ring/router (routes handlers))))
