"""`python -m scripts.stack --processes 3`: what `bash scripts/run.sh --processes 3` runs."""

from scripts.stack.launch import main

if __name__ == "__main__":
    main()
