prefix="$CLASSROOM-$ASSIGNMENT-"
mkdir -p class
gh repo list "$ORG" --limit 10000 --json name --jq '.[].name' | sort |
while read -r repo; do
  case "$repo" in
    "$prefix"?*) gh repo clone "$ORG/$repo" "class/${repo#"$prefix"}" -- --quiet ;;  # full history and tags
  esac
done
