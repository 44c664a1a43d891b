"""The public API of every torch release, measured by importing it (`make api`): surfaces per release, one index of intervals."""
