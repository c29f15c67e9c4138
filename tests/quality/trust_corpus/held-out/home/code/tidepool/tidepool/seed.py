"""Load the anonymised sample into the local warehouse."""


def main() -> None:
    print("seeding dw_dev")


if __name__ == "__main__":
    main()
