namespace Lendbench.Api.Endpoints;

public static class ToolsEndpoints
{
    public static void MapTools(this WebApplication app)
    {
        RouteGroupBuilder tools = app.MapGroup("/tools");
        tools.MapGet("/", () => Results.Ok());
    }
}
