using Microsoft.EntityFrameworkCore;

namespace Lendbench.Api.Data;

public sealed class LendbenchDbContext(DbContextOptions<LendbenchDbContext> options) : DbContext(options)
{
}
