from celery import Celery

app = Celery("orchard")
