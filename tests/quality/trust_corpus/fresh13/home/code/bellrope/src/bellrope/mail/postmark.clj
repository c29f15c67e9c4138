(ns bellrope.mail.postmark)

(defn send! [mailer message]
  ((:post mailer) "https://api.postmarkapp.com/email/withTemplate" message))
