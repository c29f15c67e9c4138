use Toolshed
