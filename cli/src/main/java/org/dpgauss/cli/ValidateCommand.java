package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Reads a data file with the readers every mechanism uses and reports its shape (nothing else). */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check that a .csv or .npy file is readable by dpgauss and report its shape.",
            "Rejects NaN, infinity, non-numeric or empty cells, ragged rows, empty files and bad npy headers with "
                    + "the file, line/row and column; exit code 1."})
final class ValidateCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
    Path input;

    @Override
    public Integer call() throws IOException {
        RowBlockMatrix x = DataReader.read(input);
        String name = input.getFileName().toString().toLowerCase(Locale.ROOT);
        String format = name.endsWith(".npy") ? "npy" : "csv";
        PrintWriter out = main.spec.commandLine().getOut();
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", input.toString());
            m.put("format", format);
            m.put("rows", x.rows());
            m.put("cols", x.cols());
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "%s: %s, %d rows x %d columns, all values finite%n", input, format, x.rows(),
                    x.cols());
        }
        return 0;
    }
}
