// QOI decoder and encoder
